/**
 * Drift detection without a preview: reads every account-api resource of an exported stack
 * (`pulumi stack export [--show-secrets]`) through the same `read` the engine uses on refresh, and
 * compares the live object, projected onto the inputs, with the stored inputs. For CI jobs that
 * watch registrations and triggers on a schedule, with no program to run and no language host.
 */
import { changedKeys } from "./inputs";
import { handlerFor } from "./registry";
import { PROVIDER_KEY } from "./runtime";
import type { HandlerContext } from "./types";

/** The engine's marker key on a secret value in an exported deployment. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const TYPE_PREFIX = "pulumi-nodejs:dynamic/account-api:";

export type DriftStatus = "in-sync" | "drifted" | "gone";

export interface DriftReport {
  urn: string;
  kind: string;
  id: string;
  status: DriftStatus;
  /** Inputs (and drift-relevant outputs) whose live value differs from the stored one. */
  changed: string[];
  /** Inputs stored encrypted (export without --show-secrets): not compared. */
  unverified: string[];
}

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

function isSecretEnvelope(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] !== undefined;
}

function hasCiphertext(v: unknown): boolean {
  if (isSecretEnvelope(v)) return typeof v.plaintext !== "string";
  if (Array.isArray(v)) return v.some(hasCiphertext);
  if (v && typeof v === "object") return Object.values(v).some(hasCiphertext);
  return false;
}

/** Replaces `--show-secrets` envelopes by their values; encrypted ones become undefined. */
function unwrap(v: unknown): unknown {
  if (isSecretEnvelope(v))
    return typeof v.plaintext === "string" ? unwrap(JSON.parse(v.plaintext)) : undefined;
  if (Array.isArray(v)) return v.map(unwrap);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== PROVIDER_KEY)
        .map(([k, x]) => [k, unwrap(x)]),
    );
  }
  return v;
}

/** The account-api resources of an exported stack (`{ version, deployment: { resources } }` or the deployment). */
export function accountApiResources(exported: unknown): ExportedResource[] {
  const root = exported as { deployment?: { resources?: unknown }; resources?: unknown };
  const resources = (root.deployment?.resources ?? root.resources) as ExportedResource[] | undefined;
  if (!Array.isArray(resources)) throw new Error("not a stack export: no deployment.resources");
  return resources.filter((r) => typeof r.type === "string" && r.type.startsWith(TYPE_PREFIX) && r.id);
}

function pickKeys(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

export async function detectDrift(exported: unknown, ctx: HandlerContext): Promise<DriftReport[]> {
  const reports: DriftReport[] = [];
  for (const r of accountApiResources(exported)) {
    const kind = r.type.slice(TYPE_PREFIX.length);
    const id = r.id ?? "";
    const storedRaw = r.inputs ?? {};
    const unverified = Object.keys(storedRaw).filter(
      (k) => k !== PROVIDER_KEY && hasCiphertext(storedRaw[k]),
    );
    const stored = unwrap(storedRaw) as Record<string, unknown>;
    const props = unwrap(r.outputs ?? {}) as Record<string, unknown>;
    const handler = handlerFor(kind);
    const live = await handler.read(id, props, ctx);
    if (!live) {
      reports.push({ urn: r.urn, kind, id, status: "gone", changed: [], unverified });
      continue;
    }
    const watched = handler.driftOutputs ?? [];
    const liveProps = live.props as Record<string, unknown>;
    const changed = [
      ...changedKeys(stored, live.inputs, unverified),
      ...changedKeys(pickKeys(props, watched), pickKeys(liveProps, watched)).filter((k) => !(k in stored)),
    ];
    reports.push({
      urn: r.urn,
      kind,
      id,
      status: changed.length ? "drifted" : "in-sync",
      changed,
      unverified,
    });
  }
  return reports;
}
