/**
 * Control routes (no auth, under /__emulator/search): seed namespaces without a token (the public
 * namespace operations need one). The "default" namespace always exists.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AreaContext } from "../../area";
import { NoParams, defineControl, orEmpty } from "../../define";
import type { NamespaceRecord } from "../state";
import { modelOf } from "./context";
import { instanceView, itemView, jobView, logViews } from "../views";

const NamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  account_id: z.string({ error: "must be a string" }).optional(),
});

const AccountQuery = z.looseObject({ account_id: z.string().optional() });

export function control(app: FastifyInstance, ctx: AreaContext): void {
  const area = defineControl(app);
  const view = (ns: NamespaceRecord) => ({
    name: ns.name,
    created_at: new Date(ns.created_at).toISOString(),
    instances: Object.keys(ns.instances).length,
  });
  area.get(
    "/namespaces",
    { params: NoParams, querystring: AccountQuery, permissions: undefined },
    ({ query }) =>
      modelOf(ctx)
        .listNamespaces(query.account_id ?? ctx.store.accountId)
        .map(view),
  );
  // The console's search page: every namespace's instances, with their jobs (newest first, with
  // their logs) and their items. The same views the API answers with, so no credential is shown.
  area.get(
    "/overview",
    { params: NoParams, querystring: AccountQuery, permissions: undefined },
    ({ query }) => {
      const model = modelOf(ctx);
      return model.listNamespaces(query.account_id ?? ctx.store.accountId).map((ns) => ({
        ...view(ns),
        instances: model.listInstances(ns).map((inst) => ({
          instance: instanceView(model, ns, inst),
          jobs: [...inst.jobs].reverse().map((job) => ({
            ...jobView(model, inst, job),
            logs: logViews(model, inst, job),
          })),
          items: model.items(inst).map(({ item }) => itemView(ns, inst, item)),
        })),
      }));
    },
  );
  area.post(
    "/namespaces",
    { params: NoParams, body: orEmpty(NamespaceBodySchema), permissions: undefined },
    ({ body }) => view(modelOf(ctx).createNamespace(body.account_id ?? ctx.store.accountId, body.name)),
  );
  area.delete(
    "/namespaces/:name",
    { params: z.object({ name: z.string() }), querystring: AccountQuery, permissions: undefined },
    ({ params, query }) =>
      view(modelOf(ctx).deleteNamespace(query.account_id ?? ctx.store.accountId, params.name)),
  );
}
