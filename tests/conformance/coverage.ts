/**
 * Coverage and the figure: an operation conforms when it was exercised, every exchange of it
 * validates (after the override table), and each status it documents was seen.
 */
import {
  operationKey,
  OperationMatcher,
  pathsAndMethodsOnly,
  type Contract,
  type Operation,
} from "./contract";
import type { Overrides } from "./overrides";
import { describeExchange, type RecordedExchange } from "./recorder";
import type { ContractValidator, Issue } from "./validator";

export interface OperationReport {
  key: string;
  op: Operation;
  exchanges: number;
  /** One line per problem, naming the exchange, where, and the ajv error. */
  failures: string[];
  /** Documented statuses never seen. */
  missing: string[];
  /** Accepted by the override table, looseness of the file, undocumented error statuses. */
  notes: string[];
  conforming: boolean;
}

export interface AreaReport {
  operations: OperationReport[];
  /** API exchanges no operation of the contract describes. */
  outside: string[];
  conforming: number;
  total: number;
}

/** Whether a documented status key was seen among the statuses sent. */
export function statusSeen(key: string, statuses: ReadonlySet<number>): boolean {
  if (/^\d{3}$/.test(key)) return statuses.has(Number(key));
  if (/^[1-5]XX$/.test(key)) return [...statuses].some((s) => String(s)[0] === key[0]);
  return key === "default" ? statuses.size > 0 : false;
}

function where(issue: Issue): string {
  const side = issue.side === "request" ? "request" : `response ${issue.status ?? ""}`;
  return `${side} ${issue.pointer || "(root)"}`;
}

/** What the file's README says is loose about an operation, for the report. */
export function loosenessOf(contract: Contract, op: Operation): string[] {
  const out: string[] = [];
  if (pathsAndMethodsOnly(op))
    out.push(
      "paths and methods only: added after the split, bodies not trustworthy (validated where a schema is given)",
    );
  for (const n of contract.resolutionNotes?.[operationKey(op)] ?? []) out.push(`contract: ${n}`);
  return out;
}

export function evaluate(
  contract: Contract,
  operations: readonly Operation[],
  exchanges: readonly RecordedExchange[],
  validator: ContractValidator,
  overrides: Overrides,
): AreaReport {
  const matcher = new OperationMatcher(contract.operations);
  const byOp = new Map<string, RecordedExchange[]>(operations.map((op) => [operationKey(op), []]));
  const outside: string[] = [];
  for (const x of exchanges) {
    const op = matcher.match(x.method, x.path);
    if (!op) outside.push(describeExchange(x));
    else byOp.get(operationKey(op))?.push(x);
  }
  const reports = operations.map((op): OperationReport => {
    const key = operationKey(op);
    const xs = byOp.get(key) ?? [];
    const failures: string[] = [];
    // A note repeats across exchanges (an undeclared field on every call): said once, with a count.
    const noted = new Map<string, { first: RecordedExchange; count: number }>();
    const note = (text: string, x: RecordedExchange): void => {
      const seen = noted.get(text);
      if (seen) seen.count++;
      else noted.set(text, { first: x, count: 1 });
    };
    const statuses = new Set<number>();
    for (const x of xs) {
      const verdict = validator.check(op, x);
      if (!x.dropped) statuses.add(x.status);
      for (const issue of verdict.issues) {
        const row = overrides.accept(key, issue);
        if (row) note(`${where(issue)}: ${issue.message} (accepted: api.md:${row.apiLine}, ${row.rule})`, x);
        else failures.push(`${describeExchange(x)}: ${where(issue)}: ${issue.message}`);
      }
      for (const n of verdict.notes) note(`${n.pointer ? `${n.pointer}: ` : ""}${n.message}`, x);
    }
    // The runner's fault probes alone do not exercise an operation: the scenario must reach it.
    const exercised = xs.some((x) => x.sender !== "fault");
    if (!exercised) failures.push("never exercised by the scenario");
    const missing = exercised ? Object.keys(op.responses).filter((k) => !statusSeen(k, statuses)) : [];
    const notes = [
      ...loosenessOf(contract, op),
      ...[...noted].map(
        ([text, n]) =>
          `${text} (${describeExchange(n.first)}${n.count > 1 ? `, and ${n.count - 1} more` : ""})`,
      ),
    ];
    return {
      key,
      op,
      exchanges: xs.length,
      failures,
      missing,
      notes,
      conforming: !failures.length && !missing.length,
    };
  });
  return {
    operations: reports,
    outside,
    conforming: reports.filter((r) => r.conforming).length,
    total: reports.length,
  };
}

/** The failure text of an area: every operation that does not conform, with its reasons. */
export function failureText(report: AreaReport): string {
  return report.operations
    .filter((r) => !r.conforming)
    .map((r) => {
      const lines = [
        ...r.failures,
        ...(r.missing.length ? [`documented status not seen: ${r.missing.join(", ")}`] : []),
      ];
      return `${r.key}\n${lines.map((l) => `    ${l}`).join("\n")}`;
    })
    .join("\n");
}

export interface Figure {
  [area: string]: { conforming: number; total: number };
}

/** `FIGURE conformance {...}`: per area and overall. */
export function figureLine(figure: Figure): string {
  const areas = Object.values(figure);
  const overall = {
    conforming: areas.reduce((n, a) => n + a.conforming, 0),
    total: areas.reduce((n, a) => n + a.total, 0),
  };
  return `FIGURE conformance ${JSON.stringify({ ...figure, overall })}`;
}
