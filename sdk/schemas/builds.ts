/** zod schemas of the builds area. */
import { z } from "zod";

export const BuildsPlaceholder = z.unknown();
