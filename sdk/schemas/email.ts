/** zod schemas of the email area. */
import { z } from "zod";

export const EmailPlaceholder = z.unknown();
