/**
 * The wire-schema generator: the contract's operations (contract/openapi/public-subset.json) with the
 * overlay's newer facts and rules applied, written as one zod module per area in sdk/generated/.
 * Pure: `generate` returns the files' text; scripts/generate-wire.ts writes them and
 * tests/unit/generated-fresh.test.ts compares them, so a refresh of the contract that changes a
 * field shows up as a stale file naming it.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { FAMILIES_PATH, SUBSET_PATH } from "../files";
import { loadOverlay, type Overlay } from "../overlay-schema";
import { segmentsOf } from "../check-overlay";
import { asNode, defaultsOf, toZod, type Node, type Side } from "./to-zod";
import { nodeOfType } from "./type-text";

const ParameterSchema = z.looseObject({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  schema: z.unknown().optional(),
});

const OperationSchema = z.looseObject({
  area: z.string(),
  method: z.string(),
  path: z.string(),
  operationId: z.string(),
  parameters: z.array(ParameterSchema).optional(),
  requestBody: z
    .looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.unknown() })) })
    .optional(),
  responses: z.record(
    z.string(),
    z.looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.unknown() })).optional() }),
  ),
});
type Operation = z.infer<typeof OperationSchema>;

const ContractSchema = z.looseObject({ operations: z.array(OperationSchema) });

/** `METHOD /path`, the key the overlay names operations by. */
export const operationKey = (op: Pick<Operation, "method" | "path">) =>
  `${op.method.toUpperCase()} ${op.path}`;

/** A name for the operation's schemas: its operationId in PascalCase, or method and path where the id is prose. */
export function operationName(op: Pick<Operation, "method" | "path" | "operationId">): string {
  // A public client's method (`emailSending.suppressions.list (cloudflare@7.3.0 …)`) names the
  // operation as well as an operationId would; other prose falls back to method and path.
  const clientMethod = /^[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+(?=\s|$)/.exec(op.operationId)?.[0];
  const words = /^[A-Za-z0-9_-]+$/.test(op.operationId)
    ? op.operationId.split(/[-_]+/)
    : clientMethod
      ? clientMethod.split(".")
      : [
          op.method.toLowerCase(),
          ...op.path.split("/").filter((s) => s && !s.startsWith("{") && s !== "accounts"),
        ];
  return words
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")
    .replace(/[^A-Za-z0-9]/g, "");
}

const clone = (n: Node): Node => structuredClone(n);

/** Where a dotted overlay path (`a.b`, `a[].b`) ends under `root`: the parent object and the name. */
function nodeAt(root: Node, path: string): { parent: Node; name: string } | undefined {
  const segments = segmentsOf(path);
  let here = root;
  for (const [i, s] of segments.entries()) {
    if (i === segments.length - 1) {
      if (s === "*") return undefined;
      return { parent: here, name: s };
    }
    const next = s === "*" ? here.items : here.properties?.[s];
    const branch = next?.anyOf?.find((b) => b.properties || b.items) ?? next;
    if (!branch) return undefined;
    here = branch;
  }
  return undefined;
}

/** The operation's request body, query and path schemas with the overlay applied. */
interface Shapes {
  body?: Node;
  query?: Node;
  path?: Node;
  result?: Node;
}

function requestBody(op: Operation): Node | undefined {
  const media = op.requestBody?.content["application/json"];
  return media ? asNode(media.schema) : undefined;
}

function parametersIn(op: Operation, where: "query" | "path"): Node | undefined {
  const ps = (op.parameters ?? []).filter((p) => p.in === where);
  if (!ps.length) return undefined;
  const properties: Record<string, Node> = {};
  // `readOnly` describes a body's field; on a parameter (the subdomain id's) it would drop it.
  for (const p of ps) {
    const { readOnly: _readOnly, ...node } = asNode(p.schema) ?? { type: "string" };
    properties[p.name] = node;
  }
  return { type: "object", properties, required: ps.filter((p) => p.required).map((p) => p.name) };
}

/** The success answer's `result` (or the whole body where there is no envelope). */
function successResult(op: Operation): Node | undefined {
  // Declaration entries (FAMILIES.md) key their one success as `2XX`.
  const status = Object.keys(op.responses).find((s) => /^2(\d\d|XX)$/.test(s));
  const media = status ? op.responses[status]?.content?.["application/json"] : undefined;
  const schema = media ? asNode(media.schema) : undefined;
  if (!schema) return undefined;
  return schema.properties?.result ?? schema;
}

/** A schema the overlay gives, with `x-same-as` (a field of this or another operation's body) resolved. */
type Lookup = (operation: string, field: string) => Node | undefined;

function overlayNode(schema: Record<string, unknown>, key: string, where: string, lookup: Lookup): Node {
  const same = z
    .object({ operation: z.string().optional(), field: z.string() })
    .safeParse(schema["x-same-as"]);
  if (!same.success) return asNodeStrict(schema, where);
  const found = lookup(same.data.operation ?? key, same.data.field);
  if (!found) throw new Error(`overlay schema at ${where}: x-same-as names nothing`);
  return clone(found);
}

/** The `*` rules that found their place in at least one operation. */
type Matched = Set<Overlay["rules"][number]>;

function applyOverlay(
  key: string,
  shapes: Shapes,
  overlay: Overlay,
  lookup: Lookup,
  everywhere: Matched,
): void {
  const side = (where: string): Node | undefined =>
    where === "requestBody"
      ? shapes.body
      : where === "query"
        ? shapes.query
        : where === "path"
          ? shapes.path
          : where === "response"
            ? shapes.result
            : undefined;
  for (const f of overlay.newerFacts.fields) {
    if (f.operation !== key || f.in === "response") continue;
    if (f.in === "query" && !shapes.query) shapes.query = { type: "object", properties: {}, required: [] };
    const root = side(f.in);
    const at = root && nodeAt(root, f.field);
    if (!at) throw new Error(`overlay newer field ${key} ${f.in} ${f.field}: no such place`);
    at.parent.properties ??= {};
    // A field the contract has is taken again only where the overlay gives its newer schema (a widening).
    if (at.parent.properties[at.name] && !f.schema) continue;
    at.parent.properties[at.name] = f.schema
      ? overlayNode(f.schema, key, `${key} ${f.field}`, lookup)
      : nodeOfType(f.type);
  }
  for (const e of overlay.newerFacts.enums) {
    if (e.operation !== key || e.in === "response") continue;
    const root = side(e.in);
    const at = root && nodeAt(root, e.field);
    const target = at?.parent.properties?.[at.name];
    if (!target?.enum) throw new Error(`overlay newer enum ${key} ${e.field}: no enum there`);
    const added =
      /adds (.+)$/
        .exec(e.declared)?.[1]
        ?.split(/,\s*/)
        .map((v) => JSON.parse(v) as unknown) ?? [];
    for (const v of added)
      if (!target.enum.includes(v))
        target.enum.splice(target.enum.includes(null) ? target.enum.length - 1 : target.enum.length, 0, v);
  }
  for (const r of overlay.rules ?? []) {
    if (r.operation !== key && r.operation !== "*") continue;
    const root = side(r.in);
    if (r.operation === "*") {
      const at = root && nodeAt(root, r.field);
      if (!at?.parent.properties?.[at.name]) continue;
      everywhere.add(r);
    }
    const { required, ...keywords } = r.set ?? {};
    // `a[]` is the items of the array `a` (a rule on every entry, such as "no empty pattern").
    if (r.field.endsWith("[]")) {
      const list = root && nodeAt(root, r.field.slice(0, -2));
      const items = list?.parent.properties?.[list.name]?.items;
      if (!items || required !== undefined || r.add)
        throw new Error(`overlay rule ${key} ${r.in} ${r.field}: no such place`);
      Object.assign(items, keywords);
      continue;
    }
    const at = root && nodeAt(root, r.field);
    if (!at) throw new Error(`overlay rule ${key} ${r.in} ${r.field}: no such place`);
    at.parent.properties ??= {};
    if (r.add) {
      if (at.parent.properties[at.name])
        throw new Error(`overlay rule ${key} ${r.field}: adds a field the contract has`);
      at.parent.properties[at.name] = overlayNode(r.add, key, `${key} ${r.field}`, lookup);
      continue;
    }
    if (Object.keys(keywords).length) {
      const target = at.parent.properties[at.name];
      if (!target) throw new Error(`overlay rule ${key} ${r.in} ${r.field}: no such field`);
      // A keyword set to null is taken away: a check of the contract our spec does not make.
      for (const [k, v] of Object.entries(keywords))
        if (v === null) Reflect.deleteProperty(target, k);
        else Object.assign(target, { [k]: v });
    }
    if (required !== undefined) {
      const names = new Set(at.parent.required ?? []);
      if (required) names.add(at.name);
      else names.delete(at.name);
      at.parent.required = [...names];
    }
  }
}

function asNodeStrict(value: unknown, where: string): Node {
  const n = asNode(value);
  if (!n) throw new Error(`overlay schema at ${where} is not a schema object`);
  return n;
}

/** Shorter schema texts are written out again: an alias would not be shorter to read. */
const MIN_SHARED_TEXT = 60;

const RULES = [
  "anyOf",
  "bool",
  "formatted",
  "int",
  "lengthIn",
  "list",
  "map",
  "matching",
  "num",
  "oneOf",
  "oneOfNumbers",
  "open",
  "queryBool",
  "queryNum",
  "str",
  "strict",
  "unique",
];

/** The module's head: the imports its body uses, no more (the build's tsc refuses unused ones). */
function header(body: string): string {
  const used = RULES.filter((r) => new RegExp(`\\b${r}\\(`).test(body));
  return [
    "// Generated by scripts/generate-wire.ts from contract/openapi/public-subset.json and",
    "// contract/overlay.json. Do not edit: change the overlay (or refresh the contract) and run npm run build.",
    ...(/\bz\./.test(body) ? ['import { z } from "zod";'] : []),
    `import { ${used.join(", ")} } from "../wire/rules";`,
    "",
  ].join("\n");
}

/** Every area's module text, keyed by its file name under sdk/generated/. */
export function generate(contract: unknown, overlay: Overlay): Map<string, string> {
  const { operations } = ContractSchema.parse(contract);
  const byArea = new Map<string, string[]>();
  const seen = new Set<string>();
  // The same shape under two operations (an instance path with and without its namespace) is written
  // once: the second name is the first's, so a reader compares two lines rather than two screens.
  const firstNamed = new Map<string, Map<string, string>>();
  const bodies = new Map(operations.map((op) => [operationKey(op), requestBody(op)]));
  const everywhere: Matched = new Set();
  const lookup: Lookup = (operation, field) => {
    const body = bodies.get(operation);
    const at = body && nodeAt(body, field);
    return at?.parent.properties?.[at.name];
  };
  for (const op of operations) {
    const name = operationName(op);
    if (seen.has(name)) throw new Error(`two operations are named ${name}`);
    seen.add(name);
    const key = operationKey(op);
    const [body, query, path, result] = [
      requestBody(op),
      parametersIn(op, "query"),
      parametersIn(op, "path"),
      successResult(op),
    ];
    // The overlay edits these in place: the contract's own nodes stay as read (x-same-as reads them).
    const shapes: Shapes = {
      ...(body ? { body: clone(body) } : {}),
      ...(query ? { query } : {}),
      ...(path ? { path } : {}),
      ...(result ? { result: clone(result) } : {}),
    };
    applyOverlay(key, shapes, overlay, lookup, everywhere);
    const lines = [`\n/** ${key} (${op.operationId}) */`];
    const named = firstNamed.get(op.area) ?? new Map<string, string>();
    firstNamed.set(op.area, named);
    const emit = (suffix: string, node: Node | undefined, side: Side) => {
      if (!node) return;
      const text = toZod(node, side);
      const earlier = text.length > MIN_SHARED_TEXT ? named.get(text) : undefined;
      if (earlier === undefined) named.set(text, `${name}${suffix}`);
      lines.push(`export const ${name}${suffix} = ${earlier ?? text};`);
    };
    emit("Path", shapes.path, "request");
    emit("Query", shapes.query, "query");
    emit("Body", shapes.body, "request");
    if (shapes.body && Object.keys(defaultsOf(shapes.body)).length)
      lines.push(`export const ${name}BodyDefaults = ${JSON.stringify(defaultsOf(shapes.body))} as const;`);
    emit("Result", shapes.result, "response");
    const area = byArea.get(op.area) ?? [];
    area.push(...lines);
    byArea.set(op.area, area);
  }
  for (const r of overlay.rules)
    if (r.operation === "*" && !everywhere.has(r))
      throw new Error(`overlay rule * ${r.in} ${r.field}: no operation has that place`);
  const files = new Map<string, string>();
  for (const [area, lines] of [...byArea].sort(([a], [b]) => a.localeCompare(b))) {
    const body = `${lines.join("\n")}\n`;
    files.set(`${area}.ts`, `${header(body)}${body}`);
  }
  return files;
}

/**
 * The project's contract as the generator reads it: the 112 operations of the six areas, then the
 * 31 of the same families (apps, namespaces, tokens, sending domains, suppressions, extensions) that
 * the families' resources and functions stand on.
 */
export function projectContract(): { operations: Operation[] } {
  return {
    operations: [SUBSET_PATH, FAMILIES_PATH].flatMap(
      (file) => ContractSchema.parse(JSON.parse(readFileSync(file, "utf8"))).operations,
    ),
  };
}

/** The generated modules of the project's own contract and overlay. */
export function generateFromProject(): Map<string, string> {
  return generate(projectContract(), loadOverlay());
}
