/** The text report, for a terminal or a log. */
import type { DriftReport } from "../report";
import { shown } from "./display";
import { LABEL, NEXT_STEPS, changeLine, extraLines, ignoredWhy, verdict, whyOf } from "./words";

/** The human report: one block per resource that is not in sync, the counts, how to go on. */
export function renderText(r: DriftReport): string {
  const lines: string[] = [];
  for (const res of r.resources) {
    if (res.status === "in-sync" && !res.ignoredChanges?.length) continue;
    const why = whyOf(res);
    lines.push(
      `${shown(res.type)} ${shown(res.name)} (${shown(res.id)}): ${LABEL[res.status]}${why ? `: ${why}` : ""}`,
    );
    for (const c of res.changes) lines.push(`  ${changeLine(c)}${c.note ? ` (${shown(c.note)})` : ""}`);
    for (const c of res.ignoredChanges ?? [])
      lines.push(`  ${changeLine(c)} (ignored: ${ignoredWhy(c.ignoredBy)})`);
    if (res.status === "gone")
      lines.push(
        "  deleted outside the program: `pulumi up --refresh` creates it again, `pulumi refresh` drops it from the state",
      );
  }
  lines.push(...extraLines(r), verdict(r));
  if (r.counts.drifted + r.counts.gone > 0) lines.push(...NEXT_STEPS.map((s) => `next: ${s}`));
  return `${lines.join("\n")}\n`;
}
