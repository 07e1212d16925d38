/** The instance routes: create, list, read, update and delete under both bases, and a move between namespaces. */
import { z } from "zod";
import { answer, orEmpty } from "../../define";
import { pageFields, pageOf } from "../../paging";
import {
  CreateInstanceBodySchema,
  InstanceListQuerySchema,
  MoveInstanceBodySchema,
  SearchInstanceSchema,
  UpdateInstanceBodySchema,
} from "../../../sdk/schemas/search";
import { instanceView } from "../views";
import * as G from "../../../sdk/generated/search";
import { INSTANCE_PAGES, NAMED_BASE, namespaceFor, under, type SearchArea } from "./context";

export function instanceRoutes(area: SearchArea, base: string): void {
  area.post(
    base,
    {
      params: under(base, G.AiSearchCreateInstancePath, G.AiSearchNamespaceCreateInstancePath),
      body: orEmpty(CreateInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "collection",
    },
    ({ auth: { model, ns, actor }, body }) =>
      answer(instanceView(model, ns, model.createInstance(ns, body, actor)), { status: 201 }),
  );

  area.get(
    base,
    {
      querystring: InstanceListQuerySchema.extend(pageFields(INSTANCE_PAGES)),
      params: under(base, G.AiSearchListInstancesPath, G.AiSearchNamespaceListInstancesPath),
      response: z.array(SearchInstanceSchema),
      permissions: "collection",
    },
    ({ auth: { model, ns }, params, query }) => {
      // The default base's `namespace` query names another namespace to list.
      const where =
        !("name" in params) && query.namespace !== undefined
          ? namespaceFor(model, params.account_id, query.namespace, "collection")
          : ns;
      const all = model.listInstances(where, query.search);
      if ((query.order_by_direction ?? "desc") === "desc") all.reverse();
      const page = pageOf(all, query, INSTANCE_PAGES);
      return answer(
        page.items.map((i) => instanceView(model, where, i)),
        { resultInfo: page.resultInfo },
      );
    },
  );

  area.get(
    `${base}/:id`,
    {
      params: under(base, G.AiSearchFetchInstancePath, G.AiSearchNamespaceFetchInstancePath),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => instanceView(model, ns, model.instance(ns, params.id)),
  );

  area.put(
    `${base}/:id`,
    {
      params: under(base, G.AiSearchUpdateInstancePath, G.AiSearchNamespaceUpdateInstancePath),
      body: orEmpty(UpdateInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns, actor }, params, body }) =>
      instanceView(model, ns, model.updateInstance(ns, params.id, body, actor)),
  );

  area.delete(
    `${base}/:id`,
    {
      params: under(base, G.AiSearchDeleteInstancePath, G.AiSearchNamespaceDeleteInstancePath),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      const view = instanceView(model, ns, inst);
      model.deleteInstance(ns, inst.id);
      return view;
    },
  );
}

/** Moving an instance to another namespace: served under the namespaced base only. */
export function moveRoute(area: SearchArea): void {
  area.patch(
    `${NAMED_BASE}/:id`,
    {
      params: G.AiSearchMoveInstancePath,
      body: orEmpty(MoveInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns, actor }, params, body }) => {
      const moved = model.moveInstance(params.account_id, ns, params.id, body.new_namespace, actor);
      return instanceView(model, model.namespace(params.account_id, body.new_namespace), moved);
    },
  );
}
