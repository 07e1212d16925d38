/**
 * Drift: what changed outside the program, read from the engine's refresh preview. The command
 * (cli/drift.ts) parses flags, calls `runDriftCheck` for the report and `render` for each format it
 * writes. Inside: report.ts (the report's shape, counts, exit code), events.ts (the report of the
 * engine's events), run.ts (the engine run, the unmanaged listing, the ignore file applied),
 * ignore.ts (the ignore file), unmanaged.ts (the account's objects set against the stack), render/
 * (text, Markdown, SARIF, JUnit, and the display text they share).
 */
export * from "./report";
export {
  UNCHECKED_OUTPUT,
  displayType,
  driftFromEvents,
  leafChanges,
  masked,
  propertyChanges,
} from "./events";
export {
  engineError,
  PulumiNotFoundError,
  runDriftCheck,
  stackDrift,
  type DriftCheck,
  type DriftProgress,
  type UnmanagedCheck,
} from "./run";
export {
  DriftIgnoreError,
  IGNORE_FILE,
  applyIgnores,
  parseIgnoreFile,
  today,
  type IgnoreEntry,
} from "./ignore";
export { managedKind, stackApps, unmanagedReport } from "./unmanaged";
export {
  render,
  renderJunit,
  renderMarkdown,
  renderSarif,
  renderText,
  type DriftFormat,
  type RenderArgs,
  type SarifOptions,
} from "./render";
export { NEXT_STEPS, changeLine, coverageOf, formatValue, ignoredWhy, verdict } from "./render/words";
export { SARIF_SCHEMA, sarifText } from "./render/sarif";
export { xmlText } from "./render/junit";
export { markdownText, shown, shownJson, visible } from "./render/display";
