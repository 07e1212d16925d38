/**
 * `--junit FILE`: the drift report as JUnit XML, one test case per resource of the stack. A drifted
 * resource fails with its properties, a gone one fails, one whose read failed is an error, one the
 * provider cannot check by design is skipped; what the ignore file accepts passes and says so. With
 * `--unmanaged`, a second suite holds one case per unmanaged object (failing with `--fail-on
 * unmanaged`, skipped otherwise). Pure.
 */
import { formatValue, ignoredWhy, type DriftReport, type ResourceDrift, type UnmanagedObject } from "./drift";

/** XML 1.0 has no way to write most control characters: they are dropped, the rest escaped. */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

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
  const base = { classname: res.type, name: res.name };
  const ignored = (res.ignoredChanges ?? []).map(
    (c) => `${c.path}: ${formatValue(c.old)} → ${formatValue(c.new)} (ignored: ${ignoredWhy(c.ignoredBy)})`,
  );
  const out = ignored.length ? { out: ignored.join("\n") } : {};
  switch (res.status) {
    case "drifted": {
      const body = res.changes.map(
        (c) => `${c.path}: ${formatValue(c.old)} → ${formatValue(c.new)}${c.note ? ` (${c.note})` : ""}`,
      );
      const n = res.changes.length;
      return {
        ...base,
        ...out,
        outcome: {
          tag: "failure",
          type: "drifted",
          message: `${n} propert${n === 1 ? "y" : "ies"} changed outside the program: ${res.changes.map((c) => c.path).join(", ")}`,
          body: body.join("\n"),
        },
      };
    }
    case "gone":
      return {
        ...base,
        outcome: { tag: "failure", type: "gone", message: `deleted outside the program (id ${res.id})` },
      };
    case "unchecked":
      return {
        ...base,
        outcome: res.failed
          ? { tag: "error", type: "check-failed", message: res.reason ?? "could not be read" }
          : { tag: "skipped", message: `could not be checked: ${res.reason ?? ""}` },
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
  const base = { classname: `unmanaged.${o.kind}`, name: o.name };
  const message = `not managed by the stack: adopt it with importId ${o.id} (pulumi import id ${o.importId})`;
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
          ? `      <${c.outcome.tag}${a}>${xmlText(c.outcome.body)}</${c.outcome.tag}>`
          : `      <${c.outcome.tag}${a}/>`,
      );
    }
    if (c.out) inner.push(`      <system-out>${xmlText(c.out)}</system-out>`);
    return inner.length ? `${open}>\n${inner.join("\n")}\n    </testcase>` : `${open}/>`;
  });
  return [head, ...body, "  </testsuite>"].join("\n");
}

/** The JUnit XML of one drift report. */
export function renderJunit(r: DriftReport): string {
  const suites = [suite(`drift: stack ${r.stack}`, r.resources.map(caseOf))];
  const u = r.unmanaged;
  if (u && !u.error)
    suites.push(
      suite(
        "unmanaged objects",
        u.objects.map((o) => unmanagedCase(o, u.failOn)),
      ),
    );
  if (r.error ?? u?.error) {
    const why = r.error ?? u?.error ?? "";
    suites.push(
      suite("drift check", [
        { classname: "account-api drift", name: "run", outcome: { tag: "error", message: why } },
      ]),
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: "account-api drift" })}>\n${suites.join("\n")}\n</testsuites>\n`;
}
