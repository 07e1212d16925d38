/** HTTP layer of the registrar area: one thin handler per operation over ./state. */
import type { AreaModule } from "../area";

export const registrarArea: AreaModule = {
  name: "registrar",
  api: () => {
    // routes come with the registrar area
  },
};
