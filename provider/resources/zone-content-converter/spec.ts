/**
 * ZoneContentConverter: the zone setting `content_converter` (spec C), which turns markdown
 * conversion on for a whole zone. The resource id is the zone id (one setting per zone); changing the
 * zone replaces, deleting first (the new resource may own the same setting). A zone setting always
 * exists, so create and update are both a PATCH, and delete sets the value back to `off` (a setting
 * cannot be deleted) and says so.
 *
 * Import: `importId` is the zone id, and must equal `zoneId`.
 */
import { z } from "zod";
import {
  ContentConverterSettingSchema,
  ZoneIdSchema,
  ZoneSettingFields as W,
} from "../../../sdk/schemas/content";
import { defineResource, local, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const R = ContentConverterSettingSchema.shape;

export const ZoneContentConverterSpec = defineResource({
  kind: "ZoneContentConverter",
  deleteBeforeReplace: true,
  fields: {
    /** The zone (at most 32 characters). */
    zoneId: local(
      z
        .string({ error: (iss) => (iss.input === undefined ? "required" : "must be a string") })
        .pipe(ZoneIdSchema),
      { identity: true },
    ),
    // The setting's edit body: its fields, as the sdk types them.
    ...contractInputs(W, {
      /** `on` (default) or `off`. */
      value: { default: "on" },
    }),
    editable: output("editable", R.editable),
    modifiedOn: output("modified_on", R.modified_on),
  },
});
