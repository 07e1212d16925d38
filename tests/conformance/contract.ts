/**
 * The public service's contract (the project's copy, contract/openapi/public-subset.json): loading
 * it, and finding the operation an exchange belongs to by method and path template.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { FAMILIES_PATH, SUBSET_PATH } from "../../contract/files";
import { AREAS, type Area } from "./kit";

const ROOT = resolve(__dirname, "../..");
/**
 * The shared spec folder, for api.md only (the contract is the project's own copy): `../shared`
 * beside the clone (CI checks it out there), else `../../shared` (a git worktree one level deeper),
 * as scripts/provision-engine.sh looks for it.
 */
export const SHARED_DIR =
  [resolve(ROOT, "../shared"), resolve(ROOT, "../../shared")].find((d) => existsSync(resolve(d, "spec"))) ??
  resolve(ROOT, "../shared");
export const CONTRACT_PATH = SUBSET_PATH;
export const FAMILIES_CONTRACT_PATH = FAMILIES_PATH;
export const API_SPEC_PATH = resolve(SHARED_DIR, "spec/api.md");

const MediaSchema = z.looseObject({ schema: z.unknown().optional() });
const ContentSchema = z.record(z.string(), MediaSchema);

export const ResponseSpecSchema = z.looseObject({ content: ContentSchema.optional() });
export type ResponseSpec = z.infer<typeof ResponseSpecSchema>;

export const OperationSchema = z.looseObject({
  area: z.enum(AREAS),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  path: z.string().startsWith("/"),
  operationId: z.string(),
  inProjectSpec: z.boolean().optional(),
  sourceFile: z.string().optional(),
  requestBody: z.looseObject({ content: ContentSchema.optional() }).optional(),
  responses: z.record(z.string(), ResponseSpecSchema),
});
export type Operation = z.infer<typeof OperationSchema>;

export const ContractSchema = z.looseObject({
  operations: z.array(OperationSchema).min(1),
  resolutionNotes: z.record(z.string(), z.array(z.string())).optional(),
});
export type Contract = z.infer<typeof ContractSchema>;

/**
 * public-families.json: its `resolutionNotes` also holds lists of records comparing the client's
 * declarations with the stored schemas (FAMILIES.md); only the per-operation notes (text lists keyed
 * by `METHOD /path`) are the suite's.
 */
const FamiliesFileSchema = ContractSchema.extend({
  resolutionNotes: z.record(z.string(), z.array(z.unknown())).optional(),
});

/** `METHOD /path/{template}`: how an operation is named everywhere in the suite's output. */
export function operationKey(op: Pick<Operation, "method" | "path">): string {
  return `${op.method} ${op.path}`;
}

/**
 * Operations the file has only paths and methods for: added from the official pages after the split
 * was made (its README), so their bodies are not trustworthy and are reported as such.
 */
export function pathsAndMethodsOnly(op: Operation): boolean {
  return op.sourceFile === "official page (addition)";
}

/** Parses a contract; a file that is not one fails naming what is wrong. */
export function parseContract(value: unknown, source: string): Contract {
  const parsed = ContractSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${source}: not a contract file: ${z.prettifyError(parsed.error).replace(/\n/g, "; ")}`);
  return parsed.data;
}

export function loadContract(path = CONTRACT_PATH): Contract {
  if (!existsSync(path))
    throw new Error(
      `the public contract is missing: ${path} (the project keeps its copy in contract/openapi/; ` +
        "restore it with git, or bash scripts/refresh-contract.sh <folder>)",
    );
  return parseContract(JSON.parse(readFileSync(path, "utf8")), path);
}

/** The 31 operations of the same families (contract/openapi/public-families.json), with their notes. */
export function loadFamilies(path = FAMILIES_CONTRACT_PATH): Contract {
  if (!existsSync(path)) throw new Error(`the families' contract is missing: ${path} (restore it with git)`);
  const parsed = FamiliesFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new Error(`${path}: not a contract file: ${z.prettifyError(parsed.error).replace(/\n/g, "; ")}`);
  const keys = new Set(parsed.data.operations.map(operationKey));
  const notes = Object.entries(parsed.data.resolutionNotes ?? {}).flatMap(([key, list]) =>
    keys.has(key) ? [[key, list.map(String)] as const] : [],
  );
  return { ...parsed.data, resolutionNotes: Object.fromEntries(notes) };
}

/** The two files the suite judges by, and their union (an exchange is matched against every operation). */
export interface SuiteContract {
  subset: Contract;
  families: Contract;
  all: Contract;
}

export function loadSuiteContract(): SuiteContract {
  const subset = loadContract();
  const families = loadFamilies();
  const all: Contract = {
    operations: [...subset.operations, ...families.operations],
    resolutionNotes: { ...subset.resolutionNotes, ...families.resolutionNotes },
  };
  return { subset, families, all };
}

export function operationsOf(contract: Contract, area: Area): Operation[] {
  return contract.operations.filter((op) => op.area === area);
}

interface Template {
  op: Operation;
  /** A literal segment, or null for a `{param}`. */
  segments: (string | null)[];
}

function compile(op: Operation): Template {
  const segments = op.path
    .split("/")
    .slice(1)
    .map((s) => (/^\{[^}]+\}$/.test(s) ? null : s));
  return { op, segments };
}

/** Earlier literal segments win: `/builds/latest` beats `/builds/{build_uuid}`. */
function moreSpecific(a: Template, b: Template): number {
  for (let i = 0; i < a.segments.length; i++) {
    const la = a.segments[i] !== null;
    const lb = b.segments[i] !== null;
    if (la !== lb) return la ? -1 : 1;
  }
  return 0;
}

/** Finds the operation of a request by method and path template (the path without prefix or query). */
export class OperationMatcher {
  readonly #templates: Template[];

  constructor(operations: readonly Operation[]) {
    this.#templates = operations.map(compile);
  }

  match(method: string, path: string): Operation | undefined {
    const parts = path.split("/").slice(1);
    const found = this.#templates.filter(
      (t) =>
        t.op.method === method.toUpperCase() &&
        t.segments.length === parts.length &&
        t.segments.every((s, i) => {
          const part = parts[i] ?? "";
          return s === null ? part.length > 0 : safeDecode(part) === s;
        }),
    );
    return found.sort(moreSpecific)[0]?.op;
  }

  /** The path parameters of `path` under the operation's template, decoded. */
  static params(op: Operation, path: string): Record<string, string> {
    const names = op.path.split("/").slice(1);
    const parts = path.split("/").slice(1);
    const out: Record<string, string> = {};
    names.forEach((n, i) => {
      const m = /^\{([^}]+)\}$/.exec(n);
      if (m?.[1]) out[m[1]] = safeDecode(parts[i] ?? "");
    });
    return out;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
