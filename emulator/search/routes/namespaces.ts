/**
 * The public namespace operations (create, list, read, update, delete) on the contract's schemas. The
 * "default" namespace always exists and cannot be deleted; deleting a namespace deletes its instances.
 */
import { z } from "zod";
import { answer, orEmpty } from "../../define";
import { pageFields, pageOf } from "../../paging";
import * as G from "../../../sdk/generated/search";
import { invalid, type NamespaceRecord } from "../state";
import { INSTANCE_PAGES, type SearchArea } from "./context";

/**
 * `public_endpoint_params`: the public client (cloudflare@7.3.0) sends it on create and update, the
 * contract's bodies lack it (FAMILIES.md: declarations are newer); kept as an open object.
 */
const PublicEndpointParams = z
  .record(z.string(), z.unknown(), { error: "must be an object" })
  .nullable()
  .optional();

const CreateNamespaceBody = G.AiSearchCreateNamespaceBody.extend({
  public_endpoint_params: PublicEndpointParams,
});
/** A PUT may repeat the path's `name` (the official Terraform provider does): checked by the handler. */
const UpdateNamespaceBody = G.AiSearchUpdateNamespaceBody.extend({
  name: CreateNamespaceBody.shape.name.optional(),
  public_endpoint_params: PublicEndpointParams,
});

const NamespaceSchema = G.AiSearchCreateNamespaceResult;

/**
 * A namespace as the public API returns it: the contract's fields, and the public endpoint's two
 * fields the public client declares (no public endpoint is ever provisioned, so its id is null).
 */
function namespaceView(ns: NamespaceRecord): z.input<typeof NamespaceSchema> {
  return {
    name: ns.name,
    description: ns.description ?? null,
    created_at: new Date(ns.created_at).toISOString(),
    public_endpoint_id: null,
    public_endpoint_params: ns.public_endpoint_params ?? null,
  };
}

export function namespaceRoutes(area: SearchArea): void {
  const NS = "/accounts/:account_id/ai-search/namespaces";
  const scope = { permissions: "namespaces", response: NamespaceSchema } as const;

  area.post(
    NS,
    { ...scope, params: G.AiSearchCreateNamespacePath, body: orEmpty(CreateNamespaceBody) },
    ({ auth: { model }, params, body }) => {
      const { name, ...settings } = body;
      // The contract documents 201 (and no 200) for a namespace made.
      return answer(namespaceView(model.createNamespace(params.account_id, name, settings)), { status: 201 });
    },
  );

  area.get(
    NS,
    {
      params: G.AiSearchListNamespacesPath,
      querystring: G.AiSearchListNamespacesQuery.extend(pageFields(INSTANCE_PAGES)),
      response: G.AiSearchListNamespacesResult,
      permissions: "namespaces",
    },
    ({ auth: { model }, params, query }) => {
      const search = query.search?.toLowerCase();
      const all = model
        .listNamespaces(params.account_id)
        .filter((ns) => search === undefined || ns.name.includes(search));
      const page = pageOf(all, query, INSTANCE_PAGES);
      return answer(page.items.map(namespaceView), { resultInfo: page.resultInfo });
    },
  );

  area.get(`${NS}/:name`, { ...scope, params: G.AiSearchFetchNamespacePath }, ({ auth: { model }, params }) =>
    namespaceView(model.namespace(params.account_id, params.name)),
  );

  area.put(
    `${NS}/:name`,
    { ...scope, params: G.AiSearchUpdateNamespacePath, body: orEmpty(UpdateNamespaceBody) },
    ({ auth: { model }, params, body }) => {
      const { name, ...settings } = body;
      model.namespace(params.account_id, params.name); // an unknown namespace is a 404 first
      if (name !== undefined && name !== params.name)
        throw invalid("name", `must equal the namespace in the path ("${params.name}") or be left out`);
      return namespaceView(model.updateNamespace(params.account_id, params.name, settings));
    },
  );

  // The contract's DELETE result is an object with no declared field: the emulator answers `{}`.
  area.delete(
    `${NS}/:name`,
    {
      params: G.AiSearchDeleteNamespacePath,
      response: G.AiSearchDeleteNamespaceResult,
      permissions: "namespaces",
    },
    ({ auth: { model }, params }) => {
      model.deleteNamespace(params.account_id, params.name);
      return {};
    },
  );
}
