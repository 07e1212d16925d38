/** HTTP layer of the meetings area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const meetingsArea: AreaModule = {
  name: "meetings",
  api: () => {
    // routes come with the meetings area
  },
};
