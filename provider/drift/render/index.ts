/**
 * The report in each format a drift check writes: text (stdout), Markdown (a CI job summary), SARIF
 * 2.1.0 (code scanning) and JUnit XML (test reports). The JSON report is the report object itself.
 */
import type { DriftReport } from "../report";
import { renderJunit } from "./junit";
import { renderMarkdown } from "./markdown";
import { renderSarif, type SarifOptions } from "./sarif";
import { renderText } from "./text";

export type DriftFormat = "text" | "markdown" | "sarif" | "junit";

/** The format, and for SARIF the project file and tool version its log names. */
export type RenderArgs = [format: "sarif", options: SarifOptions] | [format: Exclude<DriftFormat, "sarif">];

/** The report as the file or stream text of one format. */
export function render(report: DriftReport, ...[format, options]: RenderArgs): string {
  switch (format) {
    case "text":
      return renderText(report);
    case "markdown":
      return renderMarkdown(report);
    case "junit":
      return renderJunit(report);
    case "sarif":
      return `${JSON.stringify(renderSarif(report, options), null, 2)}\n`;
  }
}

export { renderJunit, renderMarkdown, renderSarif, renderText, type SarifOptions };
