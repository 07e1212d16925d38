/**
 * The public namespace operations (create, list, read, update, delete). The "default" namespace always
 * exists and cannot be deleted; deleting a namespace deletes its instances.
 */
import { z } from "zod";
import { AccountParams, answer, orEmpty } from "../../define";
import { pageFields, pageOf } from "../../paging";
import { SearchListQuerySchema } from "../../../sdk/schemas/search";
import type { NamespaceRecord } from "../state";
import { INSTANCE_PAGES, Namespace, type SearchArea } from "./context";

/** The public namespace operations' bodies (not in the contract subset; the public client's shape). */
const CreateNamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  description: z
    .string({ error: "must be a string or null" })
    .max(1024, "must be at most 1024 characters")
    .nullable()
    .optional(),
  public_endpoint_params: z
    .record(z.string(), z.unknown(), { error: "must be an object" })
    .nullable()
    .optional(),
});
const UpdateNamespaceBodySchema = CreateNamespaceBodySchema.omit({ name: true });

const NamespaceSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  public_endpoint_id: z.null(),
  public_endpoint_params: z.record(z.string(), z.unknown()).nullable(),
});

/** A namespace as the public API returns it. */
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
    { ...scope, params: AccountParams, body: orEmpty(CreateNamespaceBodySchema) },
    ({ auth: { model }, params, body }) => {
      const { name, ...settings } = body;
      return namespaceView(model.createNamespace(params.account_id, name, settings));
    },
  );

  area.get(
    NS,
    {
      params: AccountParams,
      querystring: SearchListQuerySchema.extend(pageFields(INSTANCE_PAGES)),
      response: z.array(NamespaceSchema),
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

  area.get(`${NS}/:namespace`, { ...scope, params: Namespace }, ({ auth: { model }, params }) =>
    namespaceView(model.namespace(params.account_id, params.namespace)),
  );

  area.put(
    `${NS}/:namespace`,
    { ...scope, params: Namespace, body: orEmpty(UpdateNamespaceBodySchema) },
    ({ auth: { model }, params, body }) =>
      namespaceView(model.updateNamespace(params.account_id, params.namespace, body)),
  );

  area.delete(`${NS}/:namespace`, { ...scope, params: Namespace }, ({ auth: { model }, params }) =>
    namespaceView(model.deleteNamespace(params.account_id, params.namespace)),
  );
}
