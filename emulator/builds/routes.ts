/** HTTP layer of the builds area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const buildsArea: AreaModule = {
  name: "builds",
  api: () => {
    // routes come with the builds area
  },
};
