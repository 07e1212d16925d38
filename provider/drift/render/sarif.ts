/**
 * `--sarif FILE`: the drift report as SARIF 2.1.0 for code-scanning views. One result per drifted
 * property; one per gone resource, per resource whose check failed, and per unmanaged object (with
 * `--unmanaged`). What the ignore file accepts stays a result, suppressed with the entry's reason.
 * Each result is located at the project's `Pulumi.yaml` (code scanning needs a file) and named
 * logically by the resource's URN. Pure.
 *
 * The structured fields (`properties`, the logical location, the run's id) hold the values exactly;
 * the texts a viewer shows (`message.text`, a suppression's justification) are display text
 * (display.ts) with `[` and `]` escaped, since SARIF reads `[text](target)` in a plain-text
 * message as a link.
 */
import { createHash } from "node:crypto";
import type { DriftReport, IgnoredBy, ResourceDrift } from "../report";
import { formatValue, ignoredWhy } from "./words";
import { shown } from "./display";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

const RULES = [
  {
    id: "drift/property-changed",
    name: "PropertyChangedOutsideProgram",
    shortDescription: { text: "A property changed outside the program" },
    help: {
      text: "`pulumi up --refresh` restores the declared value where the API can change it; `pulumi refresh` accepts the remote one.",
    },
  },
  {
    id: "drift/resource-gone",
    name: "ResourceDeletedOutsideProgram",
    shortDescription: { text: "A resource was deleted outside the program" },
    help: { text: "`pulumi up --refresh` creates it again; `pulumi refresh` drops it from the state." },
  },
  {
    id: "drift/check-failed",
    name: "DriftCheckFailed",
    shortDescription: { text: "A resource could not be read" },
    help: { text: "The engine's message says why; run `account-api drift` again once it can read it." },
  },
  {
    id: "drift/unmanaged-object",
    name: "UnmanagedObject",
    shortDescription: { text: "An object of the account that the stack does not manage" },
    help: {
      text: "Adopt it with `importId` (TypeScript) or `pulumi import`, or accept it in .account-api-driftignore.",
    },
  },
] as const;
type RuleId = (typeof RULES)[number]["id"];

export interface SarifOptions {
  /** The project's `Pulumi.yaml`, relative to the repository root, with `/`. */
  projectFile: string;
  /** The tool's version (the package's). */
  version: string;
}

type Level = "error" | "warning" | "note";

interface Result {
  ruleId: RuleId;
  ruleIndex: number;
  level: Level;
  message: { text: string };
  locations: unknown[];
  partialFingerprints: Record<string, string>;
  suppressions?: { kind: "external"; status: "accepted"; justification: string }[];
  properties?: Record<string, unknown>;
}

/** Display text as a SARIF plain-text message: literal brackets escaped (SARIF 2.1.0 §3.11.6). */
export function sarifText(text: string): string {
  return text.replace(/[[\]]/g, (ch) => `\\${ch}`);
}

const fingerprint = (...parts: string[]): string =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex");

function result(
  ruleId: RuleId,
  level: Level,
  text: string,
  where: { file: string; fqn: string; name: string },
  extra: { ignoredBy?: IgnoredBy; properties?: Record<string, unknown>; key: string },
): Result {
  return {
    ruleId,
    ruleIndex: RULES.findIndex((r) => r.id === ruleId),
    level,
    message: { text: sarifText(text) },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: where.file, uriBaseId: "%SRCROOT%" } },
        logicalLocations: [{ name: where.name, fullyQualifiedName: where.fqn, kind: "resource" }],
      },
    ],
    partialFingerprints: { "accountApiDrift/v1": fingerprint(ruleId, where.fqn, extra.key) },
    ...(extra.ignoredBy
      ? {
          suppressions: [
            {
              kind: "external",
              status: "accepted",
              justification: sarifText(ignoredWhy(extra.ignoredBy)),
            },
          ],
        }
      : {}),
    ...(extra.properties ? { properties: extra.properties } : {}),
  };
}

function resourceResults(r: DriftReport, res: ResourceDrift, file: string): Result[] {
  const where = { file, fqn: res.urn, name: `${res.type} ${res.name}` };
  const head = `${shown(res.type)} ${shown(res.name)} (stack ${shown(r.stack)})`;
  const changes = [
    ...res.changes.map((c) => ({ ...c, ignoredBy: res.ignoredBy })),
    ...(res.ignoredChanges ?? []),
  ];
  const out = changes.map((c) =>
    result(
      "drift/property-changed",
      "error",
      `${head}: \`${shown(c.path)}\` changed outside the program: ${formatValue(c.old)} → ${formatValue(c.new)}${c.restorable ? "" : ` (not restorable: ${shown(c.note ?? "")})`}`,
      where,
      {
        key: c.path,
        ...(c.ignoredBy ? { ignoredBy: c.ignoredBy } : {}),
        properties: { path: c.path, old: c.old, new: c.new, restorable: c.restorable },
      },
    ),
  );
  const goneOrIgnoredGone = res.status === "gone" || (res.status === "ignored" && changes.length === 0);
  if (goneOrIgnoredGone)
    out.push(
      result(
        "drift/resource-gone",
        "error",
        `${head}: deleted outside the program (id ${shown(res.id)})`,
        where,
        {
          key: res.id,
          ...(res.ignoredBy ? { ignoredBy: res.ignoredBy } : {}),
        },
      ),
    );
  if (res.status === "unchecked" && res.failed)
    out.push(
      result("drift/check-failed", "error", `${head}: could not be read: ${shown(res.reason ?? "")}`, where, {
        key: "read",
      }),
    );
  return out;
}

/** The SARIF log of one drift report. */
export function renderSarif(r: DriftReport, o: SarifOptions): Record<string, unknown> {
  const results = r.resources.flatMap((res) => resourceResults(r, res, o.projectFile));
  const u = r.unmanaged;
  for (const obj of u?.objects ?? []) {
    results.push(
      result(
        "drift/unmanaged-object",
        u?.failOn ? "error" : "warning",
        `${shown(obj.kind)} ${shown(obj.name)}: in the account, not managed by stack ${shown(r.stack)} (importId ${shown(obj.id)}; pulumi import id ${shown(obj.importId)})`,
        { file: o.projectFile, fqn: `${obj.kind}/${obj.importId}`, name: `${obj.kind} ${obj.name}` },
        {
          key: obj.importId,
          ...(obj.ignoredBy ? { ignoredBy: obj.ignoredBy } : {}),
          properties: { ...obj.scope },
        },
      ),
    );
  }
  const failure = r.error ?? u?.error;
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "account-api drift",
            version: o.version,
            informationUri: "https://www.npmjs.com/package/pulumi-account-api",
            rules: RULES,
          },
        },
        automationDetails: { id: `account-api-drift/${r.stack}/` },
        invocations: [
          {
            executionSuccessful: r.exitCode !== 1,
            exitCode: r.exitCode,
            ...(failure
              ? {
                  toolExecutionNotifications: [
                    { level: "error", message: { text: sarifText(shown(failure)) } },
                  ],
                }
              : {}),
          },
        ],
        results,
        properties: { counts: r.counts, schemaVersion: r.schemaVersion },
      },
    ],
  };
}
