/** HTTP layer of the search area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const searchArea: AreaModule = {
  name: "search",
  api: () => {
    // routes come with the search area
  },
};
