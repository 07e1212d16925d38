/** HTTP layer of the email area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const emailArea: AreaModule = {
  name: "email",
  api: () => {
    // routes come with the email area
  },
};
