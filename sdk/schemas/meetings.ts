/** zod schemas of the meetings area. */
import { z } from "zod";

export const MeetingsPlaceholder = z.unknown();
