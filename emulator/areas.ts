/** Every area the emulator serves, in mount order. */
import type { AreaModule } from "./area";
import { buildsArea } from "./builds/routes";
import { contentArea } from "./content/routes";
import { emailArea } from "./email/routes";
import { meetingsArea } from "./meetings/routes";
import { registrarArea } from "./registrar/routes";
import { searchArea } from "./search/routes";

export const AREAS: readonly AreaModule[] = [
  buildsArea,
  emailArea,
  contentArea,
  meetingsArea,
  registrarArea,
  searchArea,
];
