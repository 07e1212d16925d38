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

/** The report as the file or stream text of one format; SARIF's options name the project file and tool version. */
export function render(report: DriftReport, format: "sarif", options: SarifOptions): string;
export function render(report: DriftReport, format: Exclude<DriftFormat, "sarif">): string;
export function render(report: DriftReport, format: DriftFormat, options?: SarifOptions): string {
  switch (format) {
    case "text":
      return renderText(report);
    case "markdown":
      return renderMarkdown(report);
    case "junit":
      return renderJunit(report);
    case "sarif":
      if (!options) throw new TypeError('render(report, "sarif") takes the SARIF options');
      return `${JSON.stringify(renderSarif(report, options), null, 2)}\n`;
  }
}

export { renderJunit, renderMarkdown, renderSarif, renderText, type SarifOptions };
