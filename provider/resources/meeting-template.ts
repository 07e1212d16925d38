/**
 * MeetingTemplate: one meeting in a realtime app, configured as code (spec D). Identity is the
 * account and the app (changing either replaces); every other field updates in place with a PATCH.
 *
 * - The storage credentials (`accessKey`, `secret`, `password`, `privateKey`) are write-only: the API
 *   never returns them. They are secrets in state, kept out of the `recordingConfig` output, held in
 *   the secret `storageCredentials` output, and compared through `storageCredentialsHash`, so a changed
 *   credential shows as a change of `recordingConfig` without revealing it.
 * - The API has no delete: deleting sets the meeting INACTIVE. A meeting set INACTIVE outside the
 *   program is drift: refresh records the status, the next preview shows an update, and `up` makes the
 *   same meeting ACTIVE again (never a second meeting).
 * - check fills the service's defaults (booleans false, keep-alive 60 s) so removing a field from the
 *   program resets it, and an unchanged meeting gives no diff.
 * - There is no natural key, so a create is never retried and nothing is looked up; adopt an existing
 *   meeting with `importId`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { NotFoundError } from "../../sdk/errors";
import type { Meeting, MeetingCreate, MeetingUpdate } from "../../sdk/meetings";
import {
  AppIdSchema,
  MeetingCreateSchema,
  type AUDIO_CHANNELS,
  type AUDIO_CODECS,
  type SFTP_AUTH_METHODS,
  type STORAGE_TYPES,
  type SUMMARY_TYPES,
  type TEXT_FORMATS,
  type TRANSCRIPTION_LANGUAGES,
  type VIDEO_CODECS,
  type WATERMARK_POSITIONS,
} from "../../sdk/schemas/meetings";
import { changedKeys, checkWith, fromApi, isUnknown, secretHash, snakeToCamel, toApi } from "../inputs";
import type { DeepInput } from "../input-types";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface SummarizationInputs {
  summaryType?: (typeof SUMMARY_TYPES)[number];
  textFormat?: (typeof TEXT_FORMATS)[number];
  wordLimit?: number;
}

export interface TranscriptionInputs {
  keywords?: string[];
  language?: (typeof TRANSCRIPTION_LANGUAGES)[number];
  profanityFilter?: boolean;
}

export interface AiConfigInputs {
  summarization?: SummarizationInputs;
  transcription?: TranscriptionInputs;
}

export interface StorageCredentials {
  accessKey?: string;
  secret?: string;
  password?: string;
  privateKey?: string;
}

export interface StorageConfigInputs extends StorageCredentials {
  type: (typeof STORAGE_TYPES)[number];
  authMethod?: (typeof SFTP_AUTH_METHODS)[number];
  bucket?: string;
  region?: string;
  path?: string;
  host?: string;
  port?: number;
  username?: string;
}

export interface RecordingConfigInputs {
  audioConfig?: {
    channel?: (typeof AUDIO_CHANNELS)[number];
    codec?: (typeof AUDIO_CODECS)[number];
    exportFile?: boolean;
  };
  fileNamePrefix?: string;
  liveStreamingConfig?: { rtmpUrl?: string };
  maxSeconds?: number;
  mediaBucketConfig?: { enabled: boolean };
  storageConfig?: StorageConfigInputs;
  videoConfig?: {
    codec?: (typeof VIDEO_CODECS)[number];
    exportFile?: boolean;
    height?: number;
    width?: number;
    watermark?: {
      position?: (typeof WATERMARK_POSITIONS)[number];
      size?: { height?: number; width?: number };
      url?: string;
    };
  };
}

/** The meeting fields the resource manages (camelCase of the spec's create body). */
export interface MeetingFields {
  title?: string;
  liveStreamOnStart?: boolean;
  persistChat?: boolean;
  recordOnStart?: boolean;
  sessionKeepAliveTimeInSecs?: number;
  summarizeOnEnd?: boolean;
  transcribeOnEnd?: boolean;
  aiConfig?: AiConfigInputs;
  recordingConfig?: RecordingConfigInputs;
}

export interface MeetingTemplateInputs extends MeetingFields {
  accountId?: string;
  importId?: string;
  /** The app the meeting lives in (at most 32 characters). Changing it replaces the meeting. */
  appId: string;
}

export interface MeetingTemplateOutputs extends MeetingTemplateInputs {
  /** The meeting's id (UUID), also the resource id. */
  meetingId: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** The write-only storage credentials as last sent (secret output). */
  storageCredentials?: StorageCredentials;
  /** Hash of `storageCredentials`: shows a change without the plaintext. */
  storageCredentialsHash?: string;
}

export interface MeetingTemplateArgs extends CommonArgs {
  appId: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  liveStreamOnStart?: pulumi.Input<boolean>;
  persistChat?: pulumi.Input<boolean>;
  recordOnStart?: pulumi.Input<boolean>;
  /** 60 to 600 seconds; default 60. */
  sessionKeepAliveTimeInSecs?: pulumi.Input<number>;
  /** Needs `transcribeOnEnd: true`. */
  summarizeOnEnd?: pulumi.Input<boolean>;
  transcribeOnEnd?: pulumi.Input<boolean>;
  aiConfig?: DeepInput<AiConfigInputs>;
  /** The storage credentials inside are made secrets whatever you pass. */
  recordingConfig?: DeepInput<RecordingConfigInputs>;
}

/** Inputs whose change replaces the meeting: where it lives. */
export const REPLACE_ON_CHANGE = ["accountId", "appId"] as const;

export const MANAGED_FIELDS = [
  "title",
  "liveStreamOnStart",
  "persistChat",
  "recordOnStart",
  "sessionKeepAliveTimeInSecs",
  "summarizeOnEnd",
  "transcribeOnEnd",
  "aiConfig",
  "recordingConfig",
] as const satisfies readonly (keyof MeetingFields)[];
type ManagedField = (typeof MANAGED_FIELDS)[number];

/** The service's defaults, filled in by check so an absent field means this value. */
export const MEETING_DEFAULTS = {
  liveStreamOnStart: false,
  persistChat: false,
  recordOnStart: false,
  sessionKeepAliveTimeInSecs: 60,
  summarizeOnEnd: false,
  transcribeOnEnd: false,
} as const satisfies Partial<MeetingFields>;

/** What a PATCH sends for a field the program no longer sets (a PATCH cannot remove a field). */
export const RESET_VALUES: Readonly<Record<ManagedField, unknown>> = {
  title: "",
  liveStreamOnStart: false,
  persistChat: false,
  recordOnStart: false,
  sessionKeepAliveTimeInSecs: 60,
  summarizeOnEnd: false,
  transcribeOnEnd: false,
  aiConfig: {},
  recordingConfig: {},
};

export const CREDENTIAL_FIELDS = ["accessKey", "secret", "password", "privateKey"] as const;

const OUTPUT_NAMES = [
  "meetingId",
  "status",
  "createdAt",
  "updatedAt",
  "storageCredentials",
  "storageCredentialsHash",
];
const SECRET_OUTPUTS = ["storageCredentials"];

// ---- pure planning ----

/** Snake-case names that appear inside rule messages, spelled as the resource's inputs. */
const NAMES_IN_MESSAGES: readonly [RegExp, string][] = [
  [/\btranscribe_on_end\b/g, "transcribeOnEnd"],
  [/\bvideo_config\.codec\b/g, "videoConfig.codec"],
  [/\bauth_method\b/g, "authMethod"],
];

function inputPath(apiPath: string): string {
  return apiPath
    .split(".")
    .map((s) => snakeToCamel(s))
    .join(".");
}

function inputWording(message: string): string {
  return NAMES_IN_MESSAGES.reduce((m, [re, name]) => m.replace(re, name), message);
}

/** The managed fields of some inputs, in the API's naming (credentials included): a create body. */
export function meetingBody(fields: MeetingFields): MeetingCreate {
  const out: Record<string, unknown> = {};
  for (const k of MANAGED_FIELDS) if (fields[k] !== undefined) out[k] = fields[k];
  return toApi(out) as MeetingCreate;
}

/** The credentials inside a recording config, if any. */
export function credentialsOf(rc: RecordingConfigInputs | undefined): StorageCredentials | undefined {
  const sc = rc?.storageConfig;
  if (!sc) return undefined;
  const creds: StorageCredentials = {};
  for (const f of CREDENTIAL_FIELDS) if (sc[f] !== undefined) creds[f] = sc[f];
  return Object.keys(creds).length ? creds : undefined;
}

export function credentialsHash(creds: StorageCredentials | undefined): string | undefined {
  return creds ? secretHash("recordingConfig.storageConfig", creds) : undefined;
}

/** A recording config without its credentials: what outputs and comparisons hold. */
export function withoutCredentials(rc: RecordingConfigInputs | undefined): RecordingConfigInputs | undefined {
  if (!rc?.storageConfig) return rc;
  const sc: Record<string, unknown> = { ...rc.storageConfig };
  for (const f of CREDENTIAL_FIELDS) delete sc[f];
  return { ...rc, storageConfig: sc as unknown as StorageConfigInputs };
}

/** Puts credentials back into a recording config (read restores the ones the API never returns). */
export function withCredentials(
  rc: RecordingConfigInputs | undefined,
  creds: StorageCredentials | undefined,
): RecordingConfigInputs | undefined {
  if (!rc?.storageConfig || !creds) return rc;
  return { ...rc, storageConfig: { ...rc.storageConfig, ...creds } };
}

/** Comparable view: managed fields with credentials stripped. */
function comparable(fields: MeetingFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of MANAGED_FIELDS) out[k] = fields[k];
  out.recordingConfig = withoutCredentials(fields.recordingConfig);
  return out;
}

/** Top-level managed fields that differ, a credential change counting as `recordingConfig`. */
export function changedFields(olds: MeetingTemplateOutputs, news: MeetingTemplateInputs): ManagedField[] {
  const changed = new Set(changedKeys(comparable(olds), comparable(news)) as ManagedField[]);
  if (olds.storageCredentialsHash !== credentialsHash(credentialsOf(news.recordingConfig))) {
    changed.add("recordingConfig");
  }
  return MANAGED_FIELDS.filter((k) => changed.has(k));
}

/** The PATCH body for the changed fields: new values, or a reset for what the program dropped. */
export function patchBody(changed: readonly ManagedField[], news: MeetingFields): MeetingUpdate {
  const out: Record<string, unknown> = {};
  for (const k of changed) out[k] = news[k] !== undefined ? news[k] : RESET_VALUES[k];
  return toApi(out) as MeetingUpdate;
}

/**
 * The live value projected onto what the program manages: only keys the managed value has (nested
 * too), credentials left out (the API never returns them). Arrays and scalars come from live.
 */
export function project(live: unknown, managed: unknown): unknown {
  if (!isPlainObject(managed) || !isPlainObject(live)) return live;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(managed)) {
    if ((CREDENTIAL_FIELDS as readonly string[]).includes(k)) continue;
    const v = live[k];
    if (v !== undefined && v !== null) out[k] = project(v, managed[k]);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** Outputs from the live meeting, shaped like `managed` (the inputs, or the previous outputs). */
export function outputsFrom(
  live: Meeting,
  managed: MeetingTemplateInputs,
  creds: StorageCredentials | undefined,
): MeetingTemplateOutputs {
  const camel = fromApi(live) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const k of MANAGED_FIELDS) {
    if (managed[k] === undefined) continue;
    const v = camel[k];
    if (v !== undefined && v !== null) fields[k] = project(v, managed[k]);
  }
  const hash = credentialsHash(creds);
  return {
    ...(managed.accountId !== undefined ? { accountId: managed.accountId } : {}),
    ...(managed.importId !== undefined ? { importId: managed.importId } : {}),
    appId: managed.appId,
    ...(fields as MeetingFields),
    meetingId: live.id,
    status: live.status,
    createdAt: live.created_at,
    updatedAt: live.updated_at,
    ...(creds ? { storageCredentials: creds } : {}),
    ...(hash ? { storageCredentialsHash: hash } : {}),
  };
}

/** Check failures of some (raw) inputs, each naming the input field and the rule. */
export function checkInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const key of ["appId", "accountId"] as const) {
    const v = news[key];
    if (v === undefined && key === "accountId") continue;
    if (isUnknown(v)) continue;
    const r = AppIdSchema.safeParse(v);
    if (!r.success)
      failures.push({ property: key, reason: `${key}: ${r.error.issues[0]?.message ?? "is invalid"}` });
  }
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) {
    if (k !== "appId" && k !== "accountId" && k !== "importId") fields[k] = v;
  }
  const body = toApi(fields);
  for (const f of checkWith(MeetingCreateSchema, body, inputPath)) {
    // checkWith names an unknown key's object, not the key: name the keys themselves instead
    if (!f.reason.endsWith(": is not a known field"))
      failures.push({ property: f.property, reason: inputWording(f.reason) });
  }
  for (const path of unknownKeys(MeetingCreateSchema, body)) {
    const field = inputPath(path);
    failures.push({ property: field, reason: `${field}: is not a known field` });
  }
  return failures;
}

/** Dotted API paths of keys a strict schema does not know. */
function unknownKeys(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.flatMap((i) =>
    i.code === "unrecognized_keys" ? i.keys.map((k) => [...i.path.map(String), k].join(".")) : [],
  );
}

/** Inputs with the service's defaults filled, so stored inputs are complete and stable. */
export function withDefaults(news: Record<string, unknown>): MeetingTemplateInputs {
  const out: Record<string, unknown> = { ...news };
  for (const [k, v] of Object.entries(MEETING_DEFAULTS)) if (out[k] === undefined) out[k] = v;
  return out as unknown as MeetingTemplateInputs;
}

// ---- handler ----

async function adopt(inputs: MeetingTemplateInputs, ctx: HandlerContext): Promise<Meeting> {
  const accountId = ctx.accountId(inputs.accountId);
  const meetingId = inputs.importId!;
  try {
    await ctx.api.meetings.getMeeting({ accountId, appId: inputs.appId, meetingId });
  } catch (e) {
    if (e instanceof NotFoundError) {
      throw new Error(`importId: meeting ${meetingId} not found in app ${inputs.appId}; nothing to adopt`, {
        cause: e,
      });
    }
    throw e;
  }
  return ctx.api.meetings.updateMeeting({
    accountId,
    appId: inputs.appId,
    meetingId,
    ...meetingBody(inputs),
    status: "ACTIVE",
  });
}

export const handler: ResourceHandler<MeetingTemplateInputs, MeetingTemplateOutputs> = {
  async check(_olds, news) {
    const failures = checkInputs(news);
    if (failures.length) return { failures };
    return { inputs: withDefaults(news) };
  },

  async diff(_id, olds, news) {
    const replaces = changedKeys(olds, news).filter((k) =>
      (REPLACE_ON_CHANGE as readonly string[]).includes(k),
    );
    const changes = changedFields(olds, news);
    // Deactivated outside the program: update reactivates it (every update sends status ACTIVE).
    const reactivate = olds.status === "INACTIVE";
    return {
      changes: replaces.length > 0 || changes.length > 0 || reactivate,
      replaces,
      deleteBeforeReplace: false,
    };
  },

  async create(inputs, ctx) {
    const live = inputs.importId
      ? await adopt(inputs, ctx)
      : await ctx.api.meetings.createMeeting({
          accountId: ctx.accountId(inputs.accountId),
          appId: inputs.appId,
          ...meetingBody(inputs),
        });
    return { id: live.id, outs: outputsFrom(live, inputs, credentialsOf(inputs.recordingConfig)) };
  },

  async read(id, props, ctx) {
    let live: Meeting;
    try {
      live = await ctx.api.meetings.getMeeting({
        accountId: ctx.accountId(props.accountId),
        appId: props.appId,
        meetingId: id,
      });
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
    const outs = outputsFrom(live, props, props.storageCredentials);
    const inputs: MeetingTemplateInputs = {
      ...(props.accountId !== undefined ? { accountId: props.accountId } : {}),
      ...(props.importId !== undefined ? { importId: props.importId } : {}),
      appId: props.appId,
    };
    for (const k of MANAGED_FIELDS)
      if (outs[k] !== undefined) (inputs as unknown as Record<string, unknown>)[k] = outs[k];
    inputs.recordingConfig = withCredentials(outs.recordingConfig, props.storageCredentials);
    if (inputs.recordingConfig === undefined) delete inputs.recordingConfig;
    return { id, props: outs, inputs };
  },

  async update(id, olds, news, ctx) {
    const changed = changedFields(olds, news);
    const live = await ctx.api.meetings.updateMeeting({
      accountId: ctx.accountId(news.accountId),
      appId: news.appId,
      meetingId: id,
      ...patchBody(changed, news),
      status: "ACTIVE",
    });
    return { outs: outputsFrom(live, news, credentialsOf(news.recordingConfig)) };
  },

  async delete(id, props, ctx) {
    try {
      await ctx.api.meetings.updateMeeting({
        accountId: ctx.accountId(props.accountId),
        appId: props.appId,
        meetingId: id,
        status: "INACTIVE",
      });
    } catch (e) {
      if (e instanceof NotFoundError) return;
      throw e;
    }
    ctx.log(
      `MeetingTemplate: meeting ${id} in app ${props.appId} set INACTIVE (the API cannot delete meetings)`,
    );
  },
};

// ---- the resource class ----

function hasCredentials(sc: unknown): boolean {
  return isPlainObject(sc) && CREDENTIAL_FIELDS.some((f) => sc[f] !== undefined);
}

function isPromiseLike(v: unknown): boolean {
  return !!v && typeof (v as { then?: unknown }).then === "function";
}

/**
 * Makes the storage credentials secrets. Where the config is plain, each credential leaf becomes a
 * secret and the rest stays readable; where it is an Output, the whole config (or storage config)
 * becomes secret if it carries a credential.
 */
export function secretCredentials(
  rc: DeepInput<RecordingConfigInputs> | undefined,
): DeepInput<RecordingConfigInputs> | undefined {
  const secretIf = <T>(v: pulumi.Input<T>, storageOf: (x: T) => unknown): pulumi.Output<T> =>
    pulumi
      .output(v)
      .apply((x) =>
        hasCredentials(storageOf(x as T)) ? pulumi.secret(x) : pulumi.output(x),
      ) as pulumi.Output<T>;
  if (rc === undefined) return undefined;
  if (pulumi.Output.isInstance(rc) || isPromiseLike(rc)) {
    return secretIf(rc, (x) =>
      isPlainObject(x) ? x.storageConfig : undefined,
    ) as DeepInput<RecordingConfigInputs>;
  }
  const plain = rc as Record<string, unknown>;
  const sc = plain.storageConfig;
  if (sc === undefined) return rc;
  if (pulumi.Output.isInstance(sc) || isPromiseLike(sc)) {
    return { ...plain, storageConfig: secretIf(sc, (x) => x) } as DeepInput<RecordingConfigInputs>;
  }
  const storage: Record<string, unknown> = { ...(sc as Record<string, unknown>) };
  for (const f of CREDENTIAL_FIELDS) if (storage[f] !== undefined) storage[f] = pulumi.secret(storage[f]);
  return { ...plain, storageConfig: storage } as DeepInput<RecordingConfigInputs>;
}

export class MeetingTemplate extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly appId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string | undefined>;
  declare readonly liveStreamOnStart: pulumi.Output<boolean>;
  declare readonly persistChat: pulumi.Output<boolean>;
  declare readonly recordOnStart: pulumi.Output<boolean>;
  declare readonly sessionKeepAliveTimeInSecs: pulumi.Output<number>;
  declare readonly summarizeOnEnd: pulumi.Output<boolean>;
  declare readonly transcribeOnEnd: pulumi.Output<boolean>;
  declare readonly aiConfig: pulumi.Output<AiConfigInputs | undefined>;
  /** Without the storage credentials (see `storageCredentials`). */
  declare readonly recordingConfig: pulumi.Output<RecordingConfigInputs | undefined>;
  declare readonly meetingId: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly storageCredentials: pulumi.Output<StorageCredentials | undefined>;
  declare readonly storageCredentialsHash: pulumi.Output<string | undefined>;

  constructor(name: string, args: MeetingTemplateArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, recordingConfig: secretCredentials(args.recordingConfig) };
    super("MeetingTemplate", name, registerArgs(props, OUTPUT_NAMES), opts, SECRET_OUTPUTS);
  }
}
