/** zod schemas of the content area. */
import { z } from "zod";

export const ContentPlaceholder = z.unknown();
