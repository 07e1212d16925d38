/**
 * The override table: places where api.md's text overrides the public contract, listed in
 * docs/assumptions.md under one heading. A validation error is accepted only at a listed location;
 * a row that names no contract operation, an api.md line that does not exist, or a row that matched
 * nothing is itself a failure.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Contract } from "./contract";
import { operationKey } from "./contract";
import type { Issue, Side } from "./validator";

export const OVERRIDES_HEADING = "## Where the spec overrides the public contract";
export const ASSUMPTIONS_PATH = resolve(__dirname, "../../docs/assumptions.md");
const COLUMNS = ["operation", "location", "api.md", "rule"];

export interface OverrideRow {
  /** 1-based line of the row in the markdown file. */
  line: number;
  operation: string;
  side: Side;
  /** For response rows: the status as sent (`400`) or the documented key (`4XX`). */
  status?: string;
  /** JSON pointer; a `*` segment stands for any one segment (an array index). */
  pointer: string;
  apiLine: number;
  rule: string;
  /** The row's text as written, for messages. */
  text: string;
}

export interface TableProblem {
  line: number;
  message: string;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim().replace(/^`(.*)`$/, "$1"));
}

/** `request /to`, `request` (the whole body), `response 400 /errors/0/code`. */
function parseLocation(text: string): Pick<OverrideRow, "side" | "status" | "pointer"> | string {
  const m = /^(request|response)(?:\s+(\d{3}|[1-5]XX|default))?(?:\s+(\/\S*))?$/.exec(text);
  if (!m)
    return `location ${JSON.stringify(text)}: must be "request <json pointer>" or "response <status> <json pointer>"`;
  const side = m[1] as Side;
  if (side === "request" && m[2]) return `location ${JSON.stringify(text)}: a request location has no status`;
  if (side === "response" && !m[2])
    return `location ${JSON.stringify(text)}: a response location needs its status`;
  return { side, pointer: m[3] ?? "", ...(m[2] ? { status: m[2] } : {}) };
}

/** Parses the table under the heading; a missing heading or a malformed row is a problem, not a throw. */
export function parseOverrides(markdown: string): { rows: OverrideRow[]; problems: TableProblem[] } {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === OVERRIDES_HEADING);
  if (start < 0)
    return { rows: [], problems: [{ line: 0, message: `heading "${OVERRIDES_HEADING}" not found` }] };
  const rows: OverrideRow[] = [];
  const problems: TableProblem[] = [];
  let header = false;
  for (let i = start + 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^#{1,2}\s/.test(raw)) break;
    if (!raw.trim().startsWith("|")) {
      if (header && raw.trim() !== "") break;
      continue;
    }
    const c = cells(raw);
    if (!header) {
      if (c.join("|") !== COLUMNS.join("|"))
        problems.push({ line: i + 1, message: `the table's columns must be | ${COLUMNS.join(" | ")} |` });
      header = true;
      continue;
    }
    if (c.every((x) => /^:?-+:?$/.test(x))) continue;
    if (c.length !== COLUMNS.length) {
      problems.push({
        line: i + 1,
        message: `a row needs ${COLUMNS.length} cells, this one has ${c.length}`,
      });
      continue;
    }
    const [operation, locationText, apiText, rule] = c as [string, string, string, string];
    const location = parseLocation(locationText);
    const api = /^(?:api\.md:)?(\d+)$/.exec(apiText);
    if (typeof location === "string") problems.push({ line: i + 1, message: location });
    else if (!api)
      problems.push({ line: i + 1, message: `api.md ${JSON.stringify(apiText)}: must be api.md:<line>` });
    else if (!/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/.test(operation))
      problems.push({
        line: i + 1,
        message: `operation ${JSON.stringify(operation)}: must be "METHOD /path"`,
      });
    else if (!rule) problems.push({ line: i + 1, message: "rule: must say what api.md requires" });
    else rows.push({ line: i + 1, operation, ...location, apiLine: Number(api[1]), rule, text: raw.trim() });
  }
  if (!header) problems.push({ line: start + 1, message: `no table under "${OVERRIDES_HEADING}"` });
  const sorted = [...rows].sort((a, b) => a.operation.localeCompare(b.operation));
  if (sorted.some((r, i) => r !== rows[i]))
    problems.push({ line: start + 1, message: "rows must be sorted by operation" });
  return { rows, problems };
}

/** Rows naming an operation the contract does not have, or an api.md line that does not exist. */
export function checkRows(rows: readonly OverrideRow[], contract: Contract, apiSpec: string): TableProblem[] {
  const ops = new Set(contract.operations.map(operationKey));
  const apiLines = apiSpec.split("\n");
  const problems: TableProblem[] = [];
  for (const r of rows) {
    if (!ops.has(r.operation))
      problems.push({ line: r.line, message: `operation ${r.operation} is not in the contract` });
    const text = apiLines[r.apiLine - 1];
    if (r.apiLine < 1 || text === undefined || text.trim() === "")
      problems.push({ line: r.line, message: `api.md:${r.apiLine} does not exist (or is blank)` });
  }
  return problems;
}

function pointerMatches(pattern: string, pointer: string): boolean {
  const p = pattern.split("/");
  const q = pointer.split("/");
  return p.length === q.length && p.every((s, i) => s === "*" || s === q[i]);
}

/** The override tracker of one run: which issue each row accepts, and which rows were used. */
export class Overrides {
  readonly rows: readonly OverrideRow[];
  readonly #used = new Set<OverrideRow>();

  constructor(rows: readonly OverrideRow[]) {
    this.rows = rows;
  }

  static load(path = ASSUMPTIONS_PATH): { overrides: Overrides; problems: TableProblem[] } {
    const { rows, problems } = parseOverrides(readFileSync(path, "utf8"));
    return { overrides: new Overrides(rows), problems };
  }

  /** The row accepting this issue of `operation`, if one does (it is then counted as used). */
  accept(operation: string, issue: Issue): OverrideRow | undefined {
    const row = this.rows.find(
      (r) =>
        r.operation === operation &&
        r.side === issue.side &&
        (r.side === "request" || r.status === String(issue.status) || r.status === issue.statusKey) &&
        pointerMatches(r.pointer, issue.pointer),
    );
    if (row) this.#used.add(row);
    return row;
  }

  /** Rows that accepted nothing, among those whose operation is in `operations` (the areas that ran). */
  unused(operations: ReadonlySet<string>): OverrideRow[] {
    return this.rows.filter((r) => operations.has(r.operation) && !this.#used.has(r));
  }
}
