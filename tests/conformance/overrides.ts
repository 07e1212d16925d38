/**
 * The override table: places where api.md's text overrides the public contract, kept as data in the
 * overlay (contract/overlay.json, `overrides`) and shown in docs/assumptions.md under one heading.
 * A validation error is accepted only at a listed location; a row that names no contract operation,
 * an api.md line that does not exist, or a row that matched nothing is itself a failure.
 */
import { relative, resolve } from "node:path";
import { OVERLAY_PATH } from "../../contract/files";
import { loadOverlay, type Overlay, type Override } from "../../contract/overlay-schema";
import type { Contract } from "./contract";
import { operationKey } from "./contract";
import type { Issue, Side } from "./validator";

export const OVERRIDES_HEADING = "## Where the spec overrides the public contract";
export const ASSUMPTIONS_PATH = resolve(__dirname, "../../docs/assumptions.md");
const ROOT = resolve(__dirname, "../..");
const COLUMNS = ["operation", "location", "api.md", "rule"];

export interface OverrideRow {
  /** Where the row is written, for messages: `contract/overlay.json overrides[3]`. */
  where: string;
  operation: string;
  side: Side;
  /** For response rows: the status as sent (`400`) or the documented key (`4XX`). */
  status?: string;
  /** JSON pointer; a `*` segment stands for any one segment (an array index). */
  pointer: string;
  apiLine: number;
  rule: string;
  /** The row as docs/assumptions.md shows it, for messages. */
  text: string;
}

export interface TableProblem {
  where: string;
  message: string;
}

/** `request /to`, `request` (the whole body), `response 400 /errors/0/code`. */
function locationText(o: Override): string {
  return [o.side, o.side === "response" ? o.status : undefined, o.pointer || undefined]
    .filter((x) => x !== undefined)
    .join(" ");
}

/** The row as the Markdown table of docs/assumptions.md writes it. */
export function tableLine(o: Override): string {
  return `| ${o.operation} | ${locationText(o)} | api.md:${o.apiLine} | ${o.rule} |`;
}

/** The whole table, header included, as docs/assumptions.md must show it. */
export function overrideTable(overrides: readonly Override[]): string[] {
  return [
    `| ${COLUMNS.join(" | ")} |`,
    `|${COLUMNS.map(() => "---").join("|")}|`,
    ...overrides.map(tableLine),
  ];
}

/** The table lines under the heading of a Markdown text, or a problem when there is none. */
export function docTable(markdown: string): string[] | TableProblem {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === OVERRIDES_HEADING);
  if (start < 0) return { where: "docs/assumptions.md", message: `heading "${OVERRIDES_HEADING}" not found` };
  const rest = lines.slice(start + 1);
  const first = rest.findIndex((l) => l.trim().startsWith("|"));
  if (first < 0) return { where: "docs/assumptions.md", message: `no table under "${OVERRIDES_HEADING}"` };
  const end = rest.findIndex((l, i) => i > first && !l.trim().startsWith("|"));
  return rest.slice(first, end < 0 ? undefined : end).map((l) => l.trim());
}

/** The overlay's rows, and a problem when they are not sorted by operation. */
export function overrideRows(
  overlay: Pick<Overlay, "overrides">,
  source = relative(ROOT, OVERLAY_PATH),
): { rows: OverrideRow[]; problems: TableProblem[] } {
  const rows = overlay.overrides.map((o, i): OverrideRow => ({
    where: `${source} overrides[${i}]`,
    operation: o.operation,
    side: o.side,
    ...(o.side === "response" ? { status: o.status } : {}),
    pointer: o.pointer,
    apiLine: o.apiLine,
    rule: o.rule,
    text: tableLine(o),
  }));
  const sorted = [...rows].sort((a, b) => a.operation.localeCompare(b.operation));
  const problems = sorted.some((r, i) => r !== rows[i])
    ? [{ where: `${source} overrides`, message: "rows must be sorted by operation" }]
    : [];
  return { rows, problems };
}

/**
 * Rows naming an operation the contract does not have, or an api.md line that does not exist
 * (checked when api.md is at hand: it lives in the shared spec, not in the project).
 */
export function checkRows(
  rows: readonly OverrideRow[],
  contract: Contract,
  apiSpec: string | undefined,
): TableProblem[] {
  const ops = new Set(contract.operations.map(operationKey));
  const apiLines = apiSpec?.split("\n");
  const problems: TableProblem[] = [];
  for (const r of rows) {
    if (!ops.has(r.operation))
      problems.push({ where: r.where, message: `operation ${r.operation} is not in the contract` });
    if (!apiLines) continue;
    const text = apiLines[r.apiLine - 1];
    if (r.apiLine < 1 || text === undefined || text.trim() === "")
      problems.push({ where: r.where, message: `api.md:${r.apiLine} does not exist (or is blank)` });
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

  static load(path = OVERLAY_PATH): { overrides: Overrides; problems: TableProblem[] } {
    const { rows, problems } = overrideRows(loadOverlay(path), relative(ROOT, path));
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
