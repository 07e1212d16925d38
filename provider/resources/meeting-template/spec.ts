/**
 * MeetingTemplate: one meeting in a realtime app, configured as code (spec D). Identity is the
 * account and the app (changing either replaces); every other field updates in place: a PATCH of the
 * settings it takes, a PUT of the whole meeting when `recordingConfig` or `transcribeOnEnd` changed
 * (the service's PATCH does not take them).
 *
 * - The storage credentials (`recordingConfig.storageConfig.{accessKey,secret,password,privateKey}`)
 *   are write-only: the API never returns them. Each is a secret leaf of the input (its neighbours
 *   stay readable); they are kept out of the `recordingConfig` output, held in the secret
 *   `storageCredentials` output, and `storageCredentialsHash` shows a rotation without revealing it.
 * - `status` (default ACTIVE) is an input like the others: a meeting set INACTIVE outside the program
 *   is drift, and the next `up` makes the same meeting ACTIVE again (never a second meeting).
 * - The API has no delete: deleting sets the meeting INACTIVE.
 * - check fills the service's defaults (booleans false, keep-alive 60 s) so removing a field from the
 *   program resets it, and an unchanged meeting gives no diff.
 * - `recordingConfig.mediaBucketConfig` of 0.1.0 is `recordingConfig.realtimekitBucketConfig`
 *   (the service's wire name): check refuses the old name naming the new one, and `upgrade` moves it
 *   in a stored state, so a stack made by an earlier release goes up with no replace and no diff.
 */
import { z } from "zod";
import { AppIdSchema, MeetingFields } from "../../../sdk/schemas/meetings";
import { CAMEL_CODEC, camelCased, defineResource, local, output, wire } from "../../core/define";
import { contractInputs } from "../../core/from-contract";
import { withRenamedKeys } from "./renamed";

const W = MeetingFields;

/** The storage fields the API accepts and never returns (the sdk's WRITE_ONLY_STORAGE_FIELDS). */
export const CREDENTIAL_FIELDS = ["accessKey", "secret", "password", "privateKey"] as const;

/** Names inside `recordingConfig` that earlier releases took: old → today's. */
export const RENAMED_IN_RECORDING = { mediaBucketConfig: "realtimekitBucketConfig" } as const;

/** The service's values of the settings a meeting leaves out (keep-alive: the shortest it allows). */
const MEETING_DEFAULTS = {
  live_stream_on_start: false,
  persist_chat: false,
  record_on_start: false,
  session_keep_alive_time_in_secs: 60,
  summarize_on_end: false,
  transcribe_on_end: false,
  status: "ACTIVE",
};

/** Nested configs: the program's camelCase, the sdk's rules, messages naming the program's fields. */
const nested = <Z extends z.ZodType>(wireType: Z) => camelCased(wireType, { renameInRules: true });

const StorageCredentialsSchema = z.object({
  accessKey: z.string().optional(),
  secret: z.string().optional(),
  password: z.string().optional(),
  privateKey: z.string().optional(),
});

export const MeetingTemplateSpec = defineResource({
  kind: "MeetingTemplate",
  // The marker keyword in aiConfig (checks.normalize).
  filledAtCheck: ["aiConfig"],
  /** The meeting's id is the resource id: known while an update is previewed. */
  idOutput: "meetingId",
  fields: {
    /** The app the meeting lives in (at most 32 characters). */
    appId: local(AppIdSchema, { identity: true }),
    /**
     * Every setting of the service's meeting bodies, as the contract types it, with the service's
     * defaults (booleans false, keep-alive 60 s, ACTIVE): removing one from the program resets it,
     * and an unchanged meeting gives no diff. Only the exceptions are written here.
     */
    ...contractInputs(
      W,
      {
        // Its rules' messages name the program's fields.
        ai_config: { renameInRules: true },
        // Declared below: the names of earlier releases inside it are kept known.
        recording_config: { omit: true },
        /** 60 to 600 seconds; default 60. */
        session_keep_alive_time_in_secs: {},
        /** Needs `transcribeOnEnd: true`. */
        summarize_on_end: {},
        /** ACTIVE (the default) lets participants join; INACTIVE closes the meeting. */
        status: {},
      },
      MEETING_DEFAULTS,
    ),
    /** The storage credentials inside are made secrets, one by one, whatever you pass. */
    recordingConfig: wire(
      "recording_config",
      withRenamedKeys(nested(W.recording_config.unwrap()), RENAMED_IN_RECORDING).optional(),
      {},
      CAMEL_CODEC,
    ),
    /** The meeting's id (UUID), also the resource id. */
    meetingId: output("id", z.string()),
    createdAt: output("created_at", z.string()),
    updatedAt: output("updated_at", z.string()),
    /** The write-only storage credentials as last sent: secret, the only place state keeps them. */
    storageCredentials: output(undefined, StorageCredentialsSchema.optional(), undefined, { secret: true }),
    /** A hash of `storageCredentials`: shows a change without the plaintext. */
    storageCredentialsHash: output(undefined, z.string().optional()),
  },
});
