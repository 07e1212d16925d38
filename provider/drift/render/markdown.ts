/** The Markdown report, for a CI job summary. */
import type { DriftReport, PropertyChange } from "../report";
import { markdownText, shown } from "./display";
import { LABEL, NEXT_STEPS, extraLines, formatValue, ignoredWhy, verdict } from "./words";

/** Our own Markdown, a command in code: never built from the account's text. */
const RESTORE = "`pulumi up --refresh`";

/**
 * A section for a CI job summary ($GITHUB_STEP_SUMMARY): a heading, the counts, one table. Every
 * cell, heading and list item is display text escaped by markdownText: rendered, it is exactly the
 * text report's words, however hostile the account's names and values.
 */
export function renderMarkdown(r: DriftReport): string {
  const stack = r.stack ? `stack ${markdownText(shown(r.stack))}` : "no stack selected";
  const out = [`### Drift: ${stack}`, "", `**${markdownText(verdict(r))}**`, ""];
  const rows = r.resources.flatMap((res) => {
    const what = markdownText(`${shown(res.type)} ${shown(res.name)}`);
    const status = markdownText(LABEL[res.status]);
    const row = (c: PropertyChange, last: string) =>
      `| ${what} | ${status} | ${markdownText(shown(c.path))} | ${markdownText(formatValue(c.old))} | ${markdownText(formatValue(c.new))} | ${last} |`;
    const hidden = (res.ignoredChanges ?? []).map((c) =>
      row(c, markdownText(`ignored: ${ignoredWhy(c.ignoredBy)}`)),
    );
    const ignored = res.ignoredBy ? `ignored: ${ignoredWhy(res.ignoredBy)}` : undefined;
    if (!res.changes.length && !hidden.length) {
      const cause = res.reason !== undefined ? shown(res.reason) : (ignored ?? "");
      return [`| ${what} | ${status} | ${markdownText(cause)} | | | |`];
    }
    const open = res.changes.map((c) => {
      if (ignored) return row(c, markdownText(ignored));
      if (c.restorable) return row(c, RESTORE);
      return row(c, markdownText(c.note !== undefined ? shown(c.note) : "no"));
    });
    return [...open, ...hidden];
  });
  if (rows.length) {
    out.push("| Resource | Status | Property or reason | Declared (state) | Remote (now) | Restored by |");
    out.push("|---|---|---|---|---|---|");
    out.push(...rows, "");
  }
  const extra = extraLines(r);
  if (extra.length) out.push(...extra.map((l) => `- ${markdownText(l)}`), "");
  if (r.counts.drifted + r.counts.gone > 0) out.push(...NEXT_STEPS.map((s) => `- ${s}`), "");
  return `${out.join("\n")}\n`;
}
