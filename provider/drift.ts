/**
 * Drift detection without a preview: reads every account-api resource of an exported stack
 * (`pulumi stack export [--show-secrets]`) through the same `read` the engine uses on refresh, and
 * compares the live object, projected onto the inputs, with the stored inputs. For CI jobs that
 * watch registrations and triggers on a schedule, with no program to run and no language host.
 */
import { z } from "zod";
import { changedKeys, isRecord } from "./core/values";
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
  return isRecord(v) && v[SECRET_SIG] !== undefined;
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

const ResourceSchema = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  custom: z.boolean().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
});
const DeploymentSchema = z.looseObject({ resources: z.array(ResourceSchema) });

/** The account-api resources of an exported stack (`{ version, deployment: { resources } }` or the deployment). */
export function accountApiResources(exported: unknown): ExportedResource[] {
  const root = isRecord(exported) && isRecord(exported.deployment) ? exported.deployment : exported;
  const parsed = DeploymentSchema.safeParse(root);
  if (!parsed.success) throw new Error("not a stack export: no deployment.resources");
  return parsed.data.resources.filter((r) => r.type.startsWith(TYPE_PREFIX) && r.id);
}

const asRecord = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

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
    const stored = asRecord(unwrap(storedRaw));
    const props = asRecord(unwrap(r.outputs ?? {}));
    const handler = handlerFor(kind);
    const live = await handler.read(id, props, ctx);
    if (!live) {
      reports.push({ urn: r.urn, kind, id, status: "gone", changed: [], unverified });
      continue;
    }
    const watched = handler.driftOutputs ?? [];
    const liveProps = asRecord(live.props);
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
