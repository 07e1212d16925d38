/** zod schemas of the search area. */
import { z } from "zod";

export const SearchPlaceholder = z.unknown();
