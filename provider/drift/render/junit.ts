/**
 * `--junit FILE`: the drift report as JUnit XML, one test case per resource of the stack. A drifted
 * resource fails with its properties, a gone one fails, one whose read failed is an error, one the
 * provider cannot check by design is skipped; what the ignore file accepts passes and says so. With
 * `--unmanaged`, a second suite holds one case per unmanaged object (failing with `--fail-on
 * unmanaged`, skipped otherwise). Pure.
 */
import type { DriftReport, ResourceDrift, UnmanagedObject } from "../report";
import { changeLine, ignoredWhy } from "./words";
import { shown, visible } from "./display";

/**
 * One line of display text (display.ts) as XML character data. Display text holds no control
 * character, line ending or noncharacter (XML 1.0 cannot hold most, and a parser turns a line ending
 * in an attribute into a space); should one remain it is escaped visibly, never dropped. Then the
 * markup characters become references.
 */
export function xmlText(text: string): string {
  return visible(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Lines of display text as XML character data, one per line. */
const xmlLines = (lines: string): string => lines.split("\n").map(xmlText).join("\n");

const attrs = (a: Record<string, string | number>): string =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join("");

interface Case {
  classname: string;
  name: string;
  outcome?: { tag: "failure" | "error" | "skipped"; type?: string; message: string; body?: string };
  out?: string;
}

function caseOf(res: ResourceDrift): Case {
  const base = { classname: shown(res.type), name: shown(res.name) };
  const ignored = (res.ignoredChanges ?? []).map(
    (c) => `${changeLine(c)} (ignored: ${ignoredWhy(c.ignoredBy)})`,
  );
  const out = ignored.length ? { out: ignored.join("\n") } : {};
  switch (res.status) {
    case "drifted": {
      const body = res.changes.map((c) => `${changeLine(c)}${c.note ? ` (${shown(c.note)})` : ""}`);
      const n = res.changes.length;
      return {
        ...base,
        ...out,
        outcome: {
          tag: "failure",
          type: "drifted",
          message: `${n} propert${n === 1 ? "y" : "ies"} changed outside the program: ${res.changes.map((c) => shown(c.path)).join(", ")}`,
          body: body.join("\n"),
        },
      };
    }
    case "gone":
      return {
        ...base,
        outcome: {
          tag: "failure",
          type: "gone",
          message: `deleted outside the program (id ${shown(res.id)})`,
        },
      };
    case "unchecked":
      return {
        ...base,
        outcome: res.failed
          ? { tag: "error", type: "check-failed", message: shown(res.reason ?? "could not be read") }
          : { tag: "skipped", message: `could not be checked: ${shown(res.reason ?? "")}` },
      };
    case "ignored":
      return {
        ...base,
        out: res.ignoredBy ? `ignored: ${ignoredWhy(res.ignoredBy)}` : ignored.join("\n"),
      };
    default:
      return { ...base, ...out };
  }
}

function unmanagedCase(o: UnmanagedObject, failOn: boolean): Case {
  const base = { classname: `unmanaged.${shown(o.kind)}`, name: shown(o.name) };
  const message = `not managed by the stack: adopt it with importId ${shown(o.id)} (pulumi import id ${shown(o.importId)})`;
  if (o.ignoredBy) return { ...base, out: `ignored: ${ignoredWhy(o.ignoredBy)}` };
  return {
    ...base,
    outcome: failOn ? { tag: "failure", type: "unmanaged", message } : { tag: "skipped", message },
  };
}

function suite(name: string, cases: readonly Case[]): string {
  const count = (tag: string) => cases.filter((c) => c.outcome?.tag === tag).length;
  const head = `  <testsuite${attrs({ name, tests: cases.length, failures: count("failure"), errors: count("error"), skipped: count("skipped") })}>`;
  const body = cases.map((c) => {
    const open = `    <testcase${attrs({ classname: c.classname, name: c.name })}`;
    const inner: string[] = [];
    if (c.outcome) {
      const a = attrs({ ...(c.outcome.type ? { type: c.outcome.type } : {}), message: c.outcome.message });
      inner.push(
        c.outcome.body
          ? `      <${c.outcome.tag}${a}>${xmlLines(c.outcome.body)}</${c.outcome.tag}>`
          : `      <${c.outcome.tag}${a}/>`,
      );
    }
    if (c.out) inner.push(`      <system-out>${xmlLines(c.out)}</system-out>`);
    return inner.length ? `${open}>\n${inner.join("\n")}\n    </testcase>` : `${open}/>`;
  });
  return [head, ...body, "  </testsuite>"].join("\n");
}

/** The JUnit XML of one drift report. */
export function renderJunit(r: DriftReport): string {
  const suites = [suite(`drift: stack ${shown(r.stack)}`, r.resources.map(caseOf))];
  const u = r.unmanaged;
  if (u && !u.error)
    suites.push(
      suite(
        "unmanaged objects",
        u.objects.map((o) => unmanagedCase(o, u.failOn)),
      ),
    );
  if (r.error ?? u?.error) {
    const why = shown(r.error ?? u?.error ?? "");
    suites.push(
      suite("drift check", [
        { classname: "account-api drift", name: "run", outcome: { tag: "error", message: why } },
      ]),
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: "account-api drift" })}>\n${suites.join("\n")}\n</testsuites>\n`;
}
