/** zod schemas of the registrar area. */
import { z } from "zod";

export const RegistrarPlaceholder = z.unknown();
