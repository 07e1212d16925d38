/**
 * HTTP layer of the search area: one thin handler per operation over ../state, rendered by ../views,
 * in one module per sub-resource. This assembles them, in the order the routes have always been
 * declared: per base the instance, stats, job and search routes; then the namespaced base's move,
 * cache purge and items; the routes outside the envelope; the namespaces and
 * retrieval across a namespace's instances; the service tokens.
 */
import type { AreaModule } from "../../area";
import { chatRoutes, namespaceChatRoute, namespaceSearchRoute, searchRoute } from "./ask";
import { BASES, searchApi } from "./context";
import { control } from "./control";
import { instanceRoutes, moveRoute } from "./instances";
import { itemDownloadRoute, itemRoutes } from "./items";
import { jobRoutes } from "./jobs";
import { namespaceRoutes } from "./namespaces";
import { purgeCacheRoute, statsRoute } from "./stats";
import { tokenRoutes } from "./tokens";

export const searchArea: AreaModule = {
  name: "search",
  api: (app, ctx) => {
    // Item uploads are multipart; the whole body is read (uploads are small) and parsed by the route.
    app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_req, body, done) =>
      done(null, body),
    );
    const area = searchApi(app, ctx);
    for (const base of BASES) {
      instanceRoutes(area, base);
      statsRoute(area, base);
      jobRoutes(area, base);
      searchRoute(area, base);
    }
    moveRoute(area);
    purgeCacheRoute(area);
    itemRoutes(area);
    chatRoutes(app, ctx);
    itemDownloadRoute(app, ctx);
    namespaceRoutes(area);
    namespaceSearchRoute(area);
    namespaceChatRoute(app, ctx);
    tokenRoutes(area);
  },
  control,
};
