/**
 * Whether every overlay entry still names something of the contract: an operation it has, and a place
 * in that operation's request or response schema. Run by tests/unit/contract-copy.test.ts, so that a
 * refresh of the contract that moves or drops what an entry names fails, naming the entry.
 */
import { z } from "zod";
import type { Overlay } from "./overlay-schema";

const OperationSchema = z.looseObject({
  method: z.string(),
  path: z.string(),
  requestBody: z
    .looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.unknown() })) })
    .optional(),
  responses: z.record(z.string(), z.looseObject({ content: z.record(z.string(), z.unknown()).optional() })),
});
type Operation = z.infer<typeof OperationSchema>;

/** What this check reads of a contract file: its operations and its `resolutionNotes`. */
export const ContractFileSchema = z.looseObject({
  operations: z.array(OperationSchema),
  resolutionNotes: z.record(z.string(), z.unknown()).optional(),
});
export type ContractFile = z.infer<typeof ContractFileSchema>;

const SchemaNode = z.looseObject({
  properties: z.record(z.string(), z.unknown()).optional(),
  items: z.unknown().optional(),
  anyOf: z.array(z.unknown()).optional(),
  oneOf: z.array(z.unknown()).optional(),
  allOf: z.array(z.unknown()).optional(),
  enum: z.array(z.unknown()).optional(),
});

/** The schemas a step of a path reaches from `schema`, through every branch of a union. */
function step(schema: unknown, segment: string): unknown[] {
  const node = SchemaNode.safeParse(schema);
  if (!node.success) return [];
  const branches = [...(node.data.anyOf ?? []), ...(node.data.oneOf ?? []), ...(node.data.allOf ?? [])];
  const here =
    segment === "*" || segment === "[]" || /^\d+$/.test(segment)
      ? node.data.items === undefined
        ? []
        : [node.data.items]
      : node.data.properties && Object.hasOwn(node.data.properties, segment)
        ? [node.data.properties[segment]]
        : [];
  return [...here, ...branches.flatMap((b) => step(b, segment))];
}

/** Every schema found at `segments` under `schema` (none when the path leads nowhere). */
export function schemasAt(schema: unknown, segments: readonly string[]): unknown[] {
  return segments.reduce<unknown[]>((found, s) => found.flatMap((x) => step(x, s)), [schema]);
}

/** `/a/*\/b` and `a[].b` alike, as segments (`*` for an array's items). */
export function segmentsOf(path: string): string[] {
  if (path.startsWith("/")) return path.slice(1).split("/");
  if (path === "") return [];
  return path.split(".").flatMap((p) => (p.endsWith("[]") ? [p.slice(0, -2), "*"] : [p]).filter(Boolean));
}

function jsonSchema(content: Record<string, unknown> | undefined): unknown {
  const media = z.looseObject({ schema: z.unknown() }).safeParse(content?.["application/json"]);
  return media.success ? media.data.schema : undefined;
}

/** The body schema of one side of an operation; a response status falls back to its range (`400` → `4XX`). */
function bodySchema(op: Operation, side: "request" | "response", status?: string): unknown {
  if (side === "request") return jsonSchema(op.requestBody?.content);
  const key = status ?? Object.keys(op.responses).find((k) => k.startsWith("2"));
  const response = key === undefined ? undefined : (op.responses[key] ?? op.responses[`${key[0]}XX`]);
  return jsonSchema(response?.content);
}

const noteSide = (side: "requestBody" | "response" | "query") =>
  side === "requestBody" ? "request" : "response";

const NoteList = z.array(z.record(z.string(), z.unknown()));

/** The notes of the list `name` of `resolutionNotes` (none when the file has no such list). */
function notesOf(file: ContractFile, name: string): Record<string, unknown>[] {
  const parsed = NoteList.safeParse(file.resolutionNotes?.[name]);
  return parsed.success ? parsed.data : [];
}

/** Whether a copied entry equals one of the notes, on the entry's own keys. */
function listed(entry: Record<string, unknown>, notes: readonly Record<string, unknown>[]): boolean {
  const wanted = Object.entries(entry).map(([k, v]) => [k, JSON.stringify(v)] as const);
  return notes.some((note) => wanted.every(([k, v]) => JSON.stringify(note[k]) === v));
}

/**
 * The entries of the overlay that resolve to nothing, each named with what is wrong. `contract` is
 * public-subset.json (the operations we serve); `families` holds the newer facts' `resolutionNotes`.
 */
export function overlayProblems(overlay: Overlay, contract: ContractFile, families: ContractFile): string[] {
  const ops = new Map(contract.operations.map((op) => [`${op.method} ${op.path}`, op]));
  const problems: string[] = [];
  const find = (where: string, key: string): Operation | undefined => {
    const op = ops.get(key);
    if (!op) problems.push(`${where}: operation ${key} is not in the contract`);
    return op;
  };
  overlay.overrides.forEach((o, i) => {
    const where = `overrides[${i}] (${o.operation}, ${o.side} ${o.pointer})`;
    const op = find(where, o.operation);
    if (!op) return;
    const schema = bodySchema(op, o.side, o.side === "response" ? o.status : undefined);
    if (schema === undefined) problems.push(`${where}: the contract has no ${o.side} body there`);
    else if (schemasAt(schema, segmentsOf(o.pointer)).length === 0)
      problems.push(`${where}: ${o.pointer} is not a place of the contract's schema`);
  });
  overlay.wireRenames.forEach((r, i) => {
    const where = `wireRenames[${i}] (${r.operation}, ${r.pointer})`;
    const op = find(where, r.operation);
    if (op && schemasAt(bodySchema(op, r.side), segmentsOf(r.pointer)).length === 0)
      problems.push(`${where}: ${r.pointer} is not a field of the contract's ${r.side}`);
  });
  const fieldNotes = notesOf(families, "fieldsMissingFromPublicSubset");
  overlay.newerFacts.fields.forEach((f, i) => {
    const where = `newerFacts.fields[${i}] (${f.operation}, ${f.in} ${f.field})`;
    const op = find(where, f.operation);
    // `schema` is ours (the newer client's declaration of a field the note types only as `object`).
    const { schema: _ours, ...note } = f;
    if (!listed(note, fieldNotes))
      problems.push(`${where}: not listed in resolutionNotes.fieldsMissingFromPublicSubset`);
    if (!op || f.in === "query") return;
    const parent = segmentsOf(f.field).slice(0, -1);
    if (schemasAt(bodySchema(op, noteSide(f.in), f.status), parent).length === 0)
      problems.push(`${where}: its parent is not a place of the contract's schema`);
  });
  const enumNotes = notesOf(families, "publicSubsetEnumsNarrowerThanDeclarations");
  overlay.newerFacts.enums.forEach((e, i) => {
    const where = `newerFacts.enums[${i}] (${e.operation}, ${e.in} ${e.field})`;
    const op = find(where, e.operation);
    if (!listed(e, enumNotes))
      problems.push(`${where}: not listed in resolutionNotes.publicSubsetEnumsNarrowerThanDeclarations`);
    if (!op || e.in === "query") return;
    const enums = schemasAt(bodySchema(op, noteSide(e.in)), segmentsOf(e.field)).map((s) =>
      JSON.stringify(SchemaNode.safeParse(s).data?.enum),
    );
    if (!enums.includes(JSON.stringify(e.subsetEnum)))
      problems.push(`${where}: the contract's enum there is no longer ${JSON.stringify(e.subsetEnum)}`);
  });
  return problems;
}
