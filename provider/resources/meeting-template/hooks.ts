/**
 * What MeetingTemplate's description cannot say: the storage credentials inside `recordingConfig`
 * are write-only (state keeps them beside it, in the secret `storageCredentials`), an update is a
 * PATCH where the service's PATCH takes every changed field and a PUT of the whole meeting otherwise,
 * a PATCH cannot remove a field (dropping one resets it), `status` is not part of a create or a PUT
 * (a PATCH sets it after them), delete only deactivates, and a stored state of an earlier release
 * has `recordingConfig.mediaBucketConfig` where today's has `realtimekitBucketConfig`.
 *
 * A meeting has no natural key, so each resource writes a marker of its own: one transcription
 * keyword `pulumi-mt-<16 hex>`, derived from the resource's URN at the first check and kept from the
 * previous inputs after that (like a ConfigRule's ref). The API stores and returns it, so a create
 * whose answer was lost, or that an interrupted engine left pending (its state lost), finds its
 * meeting by the marker instead of making a second one (docs/reliability.md).
 */
import { randomBytes } from "node:crypto";
import type { Meeting } from "../../../sdk/meetings";
import {
  MeetingCreateSchema,
  MeetingUpdateSchema,
  meetingRuleIssues,
  type MeetingCreate,
  type MeetingUpdate,
} from "../../../sdk/schemas/meetings";
import { toWire, type InputsOf, type StateOf } from "../../core/define";
import {
  orGone,
  type Remote,
  type Checks,
  type NaturalKey,
  type Adoption,
  type Reading,
  type History,
  type InputIssue,
  type Known,
} from "../../core/pipeline";
import { camelWords, isRecord, secretHash, snakeToCamel } from "../../core/values";
import type { HandlerContext } from "../../types";
import { renameKeys } from "./renamed";
import { CREDENTIAL_FIELDS, MeetingTemplateSpec, RENAMED_IN_RECORDING } from "./spec";

export type MeetingTemplateInputs = InputsOf<typeof MeetingTemplateSpec>;
type RecordingConfig = NonNullable<MeetingTemplateInputs["recordingConfig"]>;
export type StorageCredentials = NonNullable<StateOf<typeof MeetingTemplateSpec>["storageCredentials"]>;

/** The fields a PATCH may reset; check fills every other one with the service's default. */
export const RESET_VALUES = { title: "", aiConfig: {} };

/** Inputs the service's PATCH takes; a change of any other is a PUT of the whole meeting. */
export const PATCHED_INPUTS: readonly string[] = [
  "title",
  "liveStreamOnStart",
  "persistChat",
  "recordOnStart",
  "sessionKeepAliveTimeInSecs",
  "summarizeOnEnd",
  "aiConfig",
  "status",
];

const isCredential = (key: string): boolean => CREDENTIAL_FIELDS.some((f) => f === key);

export function rules(i: MeetingTemplateInputs, known: Known): InputIssue[] {
  if (!known("summarizeOnEnd") || !known("transcribeOnEnd")) return [];
  return meetingRuleIssues({
    summarize_on_end: i.summarizeOnEnd,
    transcribe_on_end: i.transcribeOnEnd,
  }).map((issue) => ({
    field: issue.path.map((p) => snakeToCamel(String(p))).join("."),
    rule: camelWords(issue.message),
  }));
}

/** The credentials inside a recording config, if any. */
export function credentialsOf(rc: RecordingConfig | undefined): StorageCredentials | undefined {
  const sc = rc?.storageConfig;
  if (!sc) return undefined;
  const creds: StorageCredentials = {};
  for (const f of CREDENTIAL_FIELDS) if (sc[f] !== undefined) creds[f] = sc[f];
  return Object.keys(creds).length ? creds : undefined;
}

// ---- the marker ----

const MARKER = /^pulumi-mt-[0-9a-f]{16}$/;
type AiConfig = NonNullable<MeetingTemplateInputs["aiConfig"]>;

/** The marker a resource's key (derived from its URN) gives: the same on every run. */
export const markerFromKey = (key: string): string => `pulumi-mt-${key}`;

/** The marker among a meeting's transcription keywords, if any. */
export function markerOf(
  ai: { transcription?: { keywords?: readonly string[] | null } | null } | null | undefined,
): string | undefined {
  return ai?.transcription?.keywords?.find((k) => MARKER.test(k));
}

/** The AI config with exactly one marker keyword: `marker`, after the program's own keywords. */
export function withMarker(ai: AiConfig | undefined, marker: string): AiConfig {
  const own = (ai?.transcription?.keywords ?? []).filter((k) => !MARKER.test(k));
  return { ...ai, transcription: { ...ai?.transcription, keywords: [...own, marker] } };
}

/**
 * The marker is kept from the previous inputs (or these), else `pulumi-mt-<key>` derived from the
 * resource's URN (the same on every run: a meeting that a lost create made is found by it), else,
 * where no host passed the URN, a random one.
 */
export function normalize(
  i: MeetingTemplateInputs,
  known: Known,
  olds?: Partial<MeetingTemplateInputs>,
  key?: string,
): MeetingTemplateInputs {
  if (!known("aiConfig")) return i;
  const marker =
    markerOf(olds?.aiConfig) ?? markerOf(i.aiConfig) ?? markerFromKey(key ?? randomBytes(8).toString("hex"));
  return { ...i, aiConfig: withMarker(i.aiConfig, marker) };
}

/** Salted with the field's path; the same value as 0.1.x stored, so no output moves on upgrade. */
export function credentialsHash(creds: StorageCredentials | undefined): string | undefined {
  return creds ? secretHash("recordingConfig.storageConfig", creds) : undefined;
}

/** A recording config without its credentials: what the `recordingConfig` output holds. */
export function withoutCredentials(rc: RecordingConfig): RecordingConfig {
  if (!rc.storageConfig) return rc;
  const { accessKey: _a, secret: _s, password: _p, privateKey: _k, ...storageConfig } = rc.storageConfig;
  return { ...rc, storageConfig };
}

/**
 * The live value projected onto what the program manages: only keys the managed value has (nested
 * too), credentials and empty values left out. Arrays and scalars come from live.
 */
export function projectOnto<T>(live: T, managed: unknown): T {
  if (!isRecord(live) || !isRecord(managed)) return live;
  const out = { ...live };
  for (const [k, v] of Object.entries(out)) {
    if (!(k in managed) || isCredential(k) || v === null || v === undefined) Reflect.deleteProperty(out, k);
    else Reflect.set(out, k, projectOnto(v, managed[k]));
  }
  return out;
}

/**
 * State keeps the credentials beside `recordingConfig` (in `storageCredentials`), since the API never
 * returns them: put them back, so diff, update and read see the inputs the program gave.
 */
export function restoreCredentials(state: object): Record<string, unknown> {
  const rc: unknown = Reflect.get(state, "recordingConfig");
  const creds: unknown = Reflect.get(state, "storageCredentials");
  if (!isRecord(rc) || !isRecord(rc.storageConfig) || !isRecord(creds)) return { ...state };
  return { ...state, recordingConfig: { ...rc, storageConfig: { ...rc.storageConfig, ...creds } } };
}

/** A stored state of any release in today's shape: names inside `recordingConfig`, credentials back. */
export function upgrade(state: object): Record<string, unknown> {
  const rc: unknown = Reflect.get(state, "recordingConfig");
  if (rc === undefined) return restoreCredentials(state);
  return restoreCredentials({ ...state, recordingConfig: renameKeys(rc, RENAMED_IN_RECORDING) });
}

/** The meeting as a create or a replace (PUT) sends it: every setting, `status` aside. */
export function meetingBody(i: MeetingTemplateInputs): MeetingCreate {
  const { status: _status, ...body } = toWire(MeetingTemplateSpec, i);
  return MeetingCreateSchema.parse(body);
}

/** The PATCH of the changed fields: new values, or a reset for what the program dropped. */
export function patchBody(changed: readonly string[], news: MeetingTemplateInputs): MeetingUpdate {
  return MeetingUpdateSchema.parse(
    toWire(MeetingTemplateSpec, { ...RESET_VALUES, ...withoutUndefined(news) }, changed),
  );
}

/** How an update reaches the service: one PATCH when it takes every changed input, else a PUT. */
export function updateVerb(changed: readonly string[]): "PATCH" | "PUT" {
  return changed.every((k) => PATCHED_INPUTS.includes(k)) ? "PATCH" : "PUT";
}

const withoutUndefined = (o: object): object =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const where = (i: MeetingTemplateInputs, ctx: HandlerContext) => ({
  accountId: ctx.accountId(i.accountId),
  appId: i.appId,
});

/**
 * Every write says the status too: a meeting deactivated outside the program comes back. A PUT
 * leaves the status as it was, so a PATCH follows it when the status differs.
 */
async function write(
  id: string,
  i: MeetingTemplateInputs,
  changed: readonly string[],
  ctx: HandlerContext,
): Promise<Meeting> {
  const at = { ...where(i, ctx), meetingId: id };
  if (updateVerb(changed) === "PATCH")
    return ctx.api.meetings.meetings.update(at, { ...patchBody(changed, i), status: i.status });
  const replaced = await ctx.api.meetings.meetings.replace(at, meetingBody(i));
  return replaced.status === i.status ? replaced : ctx.api.meetings.meetings.update(at, { status: i.status });
}

export const remote: Remote<typeof MeetingTemplateSpec, Meeting> = {
  noun: "meeting",
  idOf: (live) => live.id,
  get: (id, state, ctx) => orGone(ctx.api.meetings.meetings.get({ ...where(state, ctx), meetingId: id })),
  async create(i, ctx) {
    const made = await ctx.api.meetings.meetings.create(where(i, ctx), meetingBody(i));
    // A create makes an ACTIVE meeting: one that should not be open is closed at once.
    if (made.status === i.status) return made;
    return ctx.api.meetings.meetings.update({ ...where(i, ctx), meetingId: made.id }, { status: i.status });
  },
  update: (id, i, changed, _olds, ctx) => write(id, i, changed, ctx),
  async remove(id, state, ctx) {
    await ctx.api.meetings.meetings.update({ ...where(state, ctx), meetingId: id }, { status: "INACTIVE" });
    ctx.log(
      `MeetingTemplate: meeting ${id} in app ${state.appId} set INACTIVE (the API cannot delete meetings)`,
    );
  },
};

export const checks: Checks<typeof MeetingTemplateSpec> = {
  normalize,
  rules,
};

export const key: NaturalKey<typeof MeetingTemplateSpec, Meeting> = {
  keyField: "aiConfig",
  keyOf: (i) => `marked ${markerOf(i.aiConfig) ?? "(no marker)"} in app ${i.appId}`,
  /** The meeting that carries this resource's marker (an INACTIVE one too: adoption reactivates it). */
  async findByKey(i, ctx) {
    const marker = markerOf(i.aiConfig);
    if (marker === undefined) return undefined;
    // The largest page: this look-up precedes every meeting's create, so its requests count.
    const all = await ctx.api.meetings.meetings.listAll(where(i, ctx), { perPage: 100 });
    return all.find((m) => markerOf(m.ai_config) === marker);
  },
  // The marker is ours alone: the meeting that carries it was made by this resource.
  ours: () => true,
  // The API takes a second meeting with the same settings, so nothing refuses a create that a killed
  // engine already made: the look-up before the first send finds it by the marker, which check
  // derives from the URN and so gives again after `pulumi refresh --clear-pending-creates`.
  lookupBeforeCreate: true,
};

export const adoption: Adoption<typeof MeetingTemplateSpec, Meeting> = {
  // Adopted: written whole (its stored credentials are unknown) with the program's status.
  adopt: (id, _live, i, ctx) => write(id, i, MeetingTemplateSpec.inputNames, ctx),
};

export const reading: Reading<typeof MeetingTemplateSpec, Meeting> = {
  project(live, previous, fromTable) {
    // Only what the program manages, as the meeting holds it now (a value it lost shows as drift).
    // An import (no setting stored; a program always gives a title) manages what the meeting holds.
    const imported = previous.title === undefined;
    const out = { ...fromTable };
    for (const [k, f] of Object.entries(MeetingTemplateSpec.fields))
      if (
        f.wire !== undefined &&
        ((!imported && Reflect.get(previous, k) === undefined) || live[f.wire] == null)
      )
        Reflect.deleteProperty(out, k);
    if (out.aiConfig) out.aiConfig = projectOnto(out.aiConfig, previous.aiConfig);
    if (out.recordingConfig) {
      const rc = projectOnto(out.recordingConfig, previous.recordingConfig);
      const creds = credentialsOf(previous.recordingConfig);
      out.recordingConfig =
        rc.storageConfig && creds ? { ...rc, storageConfig: { ...rc.storageConfig, ...creds } } : rc;
    }
    return out;
  },
  outputs(_live, i) {
    const creds = credentialsOf(i.recordingConfig);
    return {
      ...(i.recordingConfig ? { recordingConfig: withoutCredentials(i.recordingConfig) } : {}),
      ...(creds ? { storageCredentials: creds, storageCredentialsHash: credentialsHash(creds) } : {}),
    };
  },
};

export const history: History = {
  upgrade,
};
