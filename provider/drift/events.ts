/**
 * Drift, read from the engine's own refresh preview (`pulumi refresh --preview-only`): the engine
 * reads every resource through its provider and reports, per resource, the state before and after
 * the read. Nothing here decrypts anything: the engine masks secret values in its events, so a
 * secret shows as `[secret]` and its change is only known as "changed".
 *
 * This module is pure (events in, report out) so its rules are tested without an engine; run.ts
 * runs the engine.
 */
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";
import { deepEqual, isRecord } from "../core/values";
import { MASK, summarize, type DriftReport, type PropertyChange, type ResourceDrift } from "./report";

/** The engine's marker key on a secret value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";

/**
 * Outputs that are the server's, yet whose change outside the program is drift worth a line, per
 * kind. Other outputs (timestamps, hashes) change with any write and are not reported.
 */
const WATCHED_OUTPUTS: Readonly<Record<string, readonly string[]>> = {
  DomainRegistration: ["status", "locked"],
};

/** Fields `pulumi up` cannot put back, and why: the report says so next to the change. */
const NOT_RESTORABLE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DomainRegistration: {
    // privacyMode is put back through the deprecated domain PUT; locked only where the program sets it.
    locked:
      "the API's registration PATCH changes auto_renew only: `pulumi up --refresh` puts the lock back only where the program sets `locked` (through the deprecated domain PUT); left out, `pulumi up` cannot set the transfer lock back: change it in the dashboard, or `pulumi refresh` to accept it",
    status: "the status is the registry's: neither command changes it; `pulumi refresh` records it",
  },
};

/** A provider may say it could not check a resource (e.g. an API without a read): this output. */
export const UNCHECKED_OUTPUT = "uncheckedReason";

function isSecret(v: unknown): boolean {
  return isRecord(v) && v[SECRET_SIG] !== undefined;
}

/** Secret envelopes become MASK; the engine already replaced their contents by `[secret]`. */
export function masked(v: unknown): unknown {
  if (isSecret(v)) return MASK;
  if (Array.isArray(v)) return v.map(masked);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, masked(x)]));
  return v;
}

/** Leaf-level differences between two values, as dotted paths (arrays compare whole). */
export function leafChanges(
  olds: unknown,
  news: unknown,
  prefix = "",
): { path: string; old: unknown; new: unknown }[] {
  if (isRecord(olds) && isRecord(news) && !isSecret(olds) && !isSecret(news)) {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort();
    return keys.flatMap((k) => leafChanges(olds[k], news[k], prefix ? `${prefix}.${k}` : k));
  }
  if (deepEqual(masked(olds), masked(news))) return [];
  return [{ path: prefix, old: masked(olds), new: masked(news) }];
}

/** `pulumi-nodejs:dynamic/account-api:BuildTrigger` → `account-api:BuildTrigger`. */
export function displayType(type: string): string {
  return type.startsWith(DYNAMIC_PREFIX) ? type.slice(DYNAMIC_PREFIX.length) : type;
}

const kindOf = (type: string): string => displayType(type).split(":").pop() ?? type;
const nameOf = (urn: string): string => urn.split("::").pop() ?? urn;

/** Resources a drift report is about: custom resources, not providers (the stack is not custom). */
function reported(m: StepEventMetadata): boolean {
  const state = m.old ?? m.new;
  return state?.custom === true && !m.type.startsWith("pulumi:providers:");
}

const withoutProvider = (o: Record<string, unknown> | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([k]) => k !== "__provider"));

/** What changed outside the program: the inputs the read projected, and the kind's watched outputs. */
export function propertyChanges(
  type: string,
  old: StepEventStateMetadata,
  now: StepEventStateMetadata,
): PropertyChange[] {
  const kind = kindOf(type);
  const oldIn = withoutProvider(old.inputs);
  const newIn = withoutProvider(now.inputs);
  const watched = (WATCHED_OUTPUTS[kind] ?? []).filter((k) => !(k in oldIn) && !(k in newIn));
  const pick = (o: Record<string, unknown> | undefined) =>
    Object.fromEntries(watched.map((k) => [k, o?.[k]]));
  const raw = [...leafChanges(oldIn, newIn), ...leafChanges(pick(old.outputs), pick(now.outputs))];
  return raw.map((c) => {
    const why = NOT_RESTORABLE[kind]?.[c.path.split(".")[0] ?? ""];
    return {
      ...c,
      restorable: why === undefined,
      ...(why ? { note: why } : c.old === MASK && c.new === MASK ? { note: "a secret value changed" } : {}),
    };
  });
}

function resourceFrom(m: StepEventMetadata): ResourceDrift {
  const base = { urn: m.urn, type: displayType(m.type), name: nameOf(m.urn), id: (m.old ?? m.new)?.id ?? "" };
  if (m.op === "delete" || m.op === "discard-replaced" || !m.new) {
    return { ...base, status: "gone", changes: [] };
  }
  const unchecked = m.new.outputs?.[UNCHECKED_OUTPUT];
  if (typeof unchecked === "string" && unchecked) {
    return { ...base, status: "unchecked", reason: unchecked, changes: [] };
  }
  const changes = m.old ? propertyChanges(m.type, m.old, m.new) : [];
  return { ...base, status: changes.length ? "drifted" : "in-sync", changes };
}

/**
 * The report of one refresh preview's events. A resource the engine started to read but never
 * finished is "unchecked", with the engine's error for it (or the run's) as the reason.
 */
export function driftFromEvents(
  stack: string,
  events: readonly EngineEvent[],
  runError?: string,
): DriftReport {
  const started = new Map<string, StepEventMetadata>();
  const done = new Map<string, ResourceDrift>();
  const errors = new Map<string, string>();
  for (const e of events) {
    const pre = e.resourcePreEvent?.metadata;
    if (pre && reported(pre)) started.set(pre.urn, pre);
    const out = e.resOutputsEvent?.metadata;
    if (out && reported(out)) done.set(out.urn, resourceFrom(out));
    const failed = e.resOpFailedEvent?.metadata;
    if (failed && reported(failed)) started.set(failed.urn, failed);
    const diag = e.diagnosticEvent;
    if (diag?.urn && diag.severity === "error") {
      const prior = errors.get(diag.urn);
      errors.set(diag.urn, prior ? `${prior}; ${clean(diag.message)}` : clean(diag.message));
    }
  }
  const resources = [...done.values()];
  for (const [urn, m] of started) {
    if (done.has(urn)) continue;
    resources.push({
      urn,
      type: displayType(m.type),
      name: nameOf(urn),
      id: (m.old ?? m.new)?.id ?? "",
      status: "unchecked",
      changes: [],
      reason: errors.get(urn) ?? runError ?? "the engine stopped before reading it",
      failed: true,
    });
  }
  resources.sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
  return summarize(stack, resources, runError);
}

/** ESC [ … m: an ANSI colour code. Built from a string, as a control character in a regex literal is refused by lint. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Engine messages carry ANSI colour codes, colour tags and a trailing newline. */
function clean(message: string): string {
  return message
    .replace(ANSI, "")
    .replace(/<\{%[^%]*%\}>/g, "")
    .trim();
}
