/** HTTP layer of the content area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const contentArea: AreaModule = {
  name: "content",
  api: () => {
    // routes come with the content area
  },
};
