/**
 * The overlay (contract/overlay.json): what our spec and docs/assumptions.md fix beyond the public
 * contract, kept as data beside the contract's copy so that refreshing one never edits the other.
 * This module is its schema and loader; it holds no rule itself.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { OVERLAY_PATH, RULES_DIR } from "./files";

/** `METHOD /path/{template}`, as the contract's operations are named everywhere. */
const OperationKey = z.string().regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/, 'must be "METHOD /path"');
/** A JSON pointer; a `*` segment stands for any one segment (an array index). */
const Pointer = z.string().regex(/^(\/[^/]+)*$/, "must be a JSON pointer ('' or /a/b)");
const ApiLine = z.number().int().positive();

/**
 * One place where api.md's text overrides the contract: the conformance suite accepts a validation
 * error there. A request row has no status; a response row has the status as sent (`400`) or as the
 * contract documents it (`4XX`).
 */
export const OverrideSchema = z.discriminatedUnion("side", [
  z.strictObject({
    operation: OperationKey,
    side: z.literal("request"),
    pointer: Pointer,
    apiLine: ApiLine,
    rule: z.string().min(1),
  }),
  z.strictObject({
    operation: OperationKey,
    side: z.literal("response"),
    status: z.string().regex(/^(\d{3}|[1-5]XX|default)$/, "must be a status (400), a range (4XX) or default"),
    pointer: Pointer,
    apiLine: ApiLine,
    rule: z.string().min(1),
  }),
]);
export type Override = z.infer<typeof OverrideSchema>;

/** A request field api.md names otherwise than the wire: `specName` in api.md, the pointer's last name on the wire. */
export const WireRenameSchema = z.strictObject({
  operation: OperationKey,
  side: z.enum(["request", "response"]),
  pointer: Pointer.min(1),
  specName: z.string().min(1),
  apiLine: ApiLine,
  why: z.string().min(1),
});
export type WireRename = z.infer<typeof WireRenameSchema>;

/** Where a note of `resolutionNotes` places a field: the request body, a response, or the query. */
const NoteSide = z.enum(["requestBody", "response", "query"]);

/** A field of the newer contract that ours lacks, copied from `resolutionNotes` (dotted path, `[]` for items). */
export const NewerFieldSchema = z.strictObject({
  operation: OperationKey,
  in: NoteSide,
  status: z.string().optional(),
  field: z.string().min(1),
  type: z.string().min(1),
  /** The field's JSON Schema where the type text says only `object` (the newer client's declaration). */
  schema: z.record(z.string(), z.unknown()).optional(),
});
export type NewerField = z.infer<typeof NewerFieldSchema>;

/** An enum the newer contract widens, copied from `resolutionNotes`. */
export const NewerEnumSchema = z.strictObject({
  operation: OperationKey,
  in: NoteSide,
  field: z.string().min(1),
  subsetEnum: z.array(z.union([z.string(), z.number()])).min(1),
  declared: z.string().min(1),
});
export type NewerEnum = z.infer<typeof NewerEnumSchema>;

/**
 * A rule of api.md or of docs/assumptions.md on one request field: `set` merges JSON Schema keywords
 * over the contract's (`maxLength`, `pattern` with `x-rule` saying it in words, `x-unit` for a range's
 * message, `enum`, `required: true` on the parent; a keyword set to `null` is taken away, a check the
 * contract makes and our spec does not), `add` gives the whole schema of a field the contract lacks
 * (one api.md adds).
 */
export const RuleSchema = z
  .strictObject({
    /** `*`: every operation that has the place (at least one must), such as every `account_id` in a path. */
    operation: z.union([OperationKey, z.literal("*")]),
    /** `response`: the success answer's `result` (a looser reading than the contract's, where the service is). */
    in: z.enum(["requestBody", "query", "path", "response"]),
    /** Dotted, `[]` for an array's items: `source_params.web_crawler.depth`. */
    field: z.string().min(1),
    set: z
      .looseObject({ required: z.boolean().optional() })
      .refine((v) => Object.keys(v).length > 0, "must set at least one keyword")
      .optional(),
    add: z.record(z.string(), z.unknown()).optional(),
    /** Where the rule comes from: `api.md:<line>` or `assumptions: <section>`. */
    why: z.string().min(1),
  })
  .refine((r) => (r.set === undefined) !== (r.add === undefined), "must have exactly one of set and add");
export type Rule = z.infer<typeof RuleSchema>;

export const OverlaySchema = z.strictObject({
  overrides: z.array(OverrideSchema),
  wireRenames: z.array(WireRenameSchema),
  newerFacts: z.strictObject({
    source: z.string().min(1),
    fields: z.array(NewerFieldSchema),
    enums: z.array(NewerEnumSchema),
  }),
  rules: z.array(RuleSchema).default([]),
});
export type Overlay = z.infer<typeof OverlaySchema>;

/** The overlay file is not valid: names the file and every place at fault. */
export class OverlayError extends Error {
  constructor(path: string, detail: string) {
    super(`${path}: not a valid overlay: ${detail}`);
    this.name = "OverlayError";
  }
}

export function parseOverlay(value: unknown, source: string): Overlay {
  const parsed = OverlaySchema.safeParse(value);
  if (!parsed.success) throw new OverlayError(source, z.prettifyError(parsed.error).replace(/\n/g, "; "));
  return parsed.data;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new OverlayError(path, e instanceof Error ? e.message : String(e));
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new OverlayError(path, e instanceof Error ? e.message : String(e));
  }
}

/**
 * overlay.json, with the rules of `rules/<area>.json` appended (one file per area, so that the rules of
 * one area are read and reviewed together).
 */
export function loadOverlay(path = OVERLAY_PATH, rulesDir = RULES_DIR): Overlay {
  const overlay = parseOverlay(readJson(path), path);
  const files = existsSync(rulesDir)
    ? readdirSync(rulesDir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
  for (const file of files) {
    const where = resolve(rulesDir, file);
    const parsed = z.array(RuleSchema).safeParse(readJson(where));
    if (!parsed.success) throw new OverlayError(where, z.prettifyError(parsed.error).replace(/\n/g, "; "));
    overlay.rules.push(...parsed.data);
  }
  return overlay;
}
