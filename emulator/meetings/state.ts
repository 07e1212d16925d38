/**
 * State of the meetings area: apps per account, and their meetings in creation order. Plain JSON (persisted
 * with the store); never sees HTTP. Write-only storage fields are kept (a control route can show them)
 * but never leave through `view`. What lives inside a meeting (participants, sessions, livestreams)
 * is ./live.ts's.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  VORBIS_VIDEO_CODECS,
  type MeetingCreate,
  type MeetingListQuery,
  type MeetingReplace,
  type MeetingSchema,
  type MeetingUpdate,
  type RecordingConfigOutSchema,
} from "../../sdk/schemas/meetings";
import { dict, type Store } from "../store";

export interface StoredMeeting {
  id: string;
  app_id: string;
  status: "ACTIVE" | "INACTIVE";
  created_at: string;
  updated_at: string;
  /** Every field as last written, write-only ones included. */
  fields: MeetingCreate;
}

interface AppMeetings {
  meetings: Record<string, StoredMeeting>;
  order: string[];
  /** Set when the app was made through `POST …/realtime/kit/apps`; an app made by its meetings has none. */
  name?: string;
  created_at?: string;
}

/** An app as the listing shows it (`name` only for one made through the apps operation). */
export type AppView = {
  id: string;
  name?: string;
  created_at: string;
};

interface MeetingsState {
  accounts: Record<string, { apps: Record<string, AppMeetings> }>;
}

/** What the service fills in when a create body leaves a field out. */
export const MEETING_DEFAULTS = {
  live_stream_on_start: false,
  persist_chat: false,
  record_on_start: false,
  session_keep_alive_time_in_secs: 60,
  summarize_on_end: false,
  transcribe_on_end: false,
} as const;

export type MeetingView = z.input<typeof MeetingSchema>;
type RecordingConfig = NonNullable<MeetingCreate["recording_config"]>;

/** Write-only storage fields stay behind; VP8 or VP9 video makes the audio codec vorbis (spec D). */
function recordingView(rec: RecordingConfig): z.input<typeof RecordingConfigOutSchema> {
  const { storage_config, audio_config, ...rest } = rec;
  const video = rec.video_config?.codec;
  const forced = video !== undefined && VORBIS_VIDEO_CODECS.includes(video);
  const audio = forced ? { ...audio_config, codec: "vorbis" } : audio_config;
  let storage;
  // null said "no storage" on the way in; the answer leaves it out.
  if (storage_config) {
    const { access_key: _a, secret: _s, password: _p, private_key: _k, ...visible } = storage_config;
    storage = visible;
  }
  return {
    ...rest,
    ...(audio ? { audio_config: audio } : {}),
    ...(storage ? { storage_config: storage } : {}),
  };
}

/** The fields a body set, null ones (the default) left out. */
function given(fields: MeetingCreate): Omit<
  MeetingCreate,
  "title" | "live_stream_on_start" | "record_on_start"
> & {
  title?: string;
  live_stream_on_start?: boolean;
  record_on_start?: boolean;
} {
  const { title, live_stream_on_start, record_on_start, ...rest } = fields;
  return {
    ...rest,
    ...(title != null ? { title } : {}),
    ...(live_stream_on_start != null ? { live_stream_on_start } : {}),
    ...(record_on_start != null ? { record_on_start } : {}),
  };
}

/** The meeting as the API returns it: defaults filled, vorbis forced by VP8/VP9, write-only fields gone. */
export function view(m: StoredMeeting): MeetingView {
  const { recording_config, ...fields } = given(structuredClone(m.fields));
  return {
    id: m.id,
    ...MEETING_DEFAULTS,
    ...fields,
    ...(recording_config ? { recording_config: recordingView(recording_config) } : {}),
    status: m.status,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

/**
 * State files of earlier emulators kept the bucket under api.md's interface name; the service's wire
 * name is `realtimekit_bucket_config`, so a loaded meeting answers it under that name.
 */
function upgradeStored(m: StoredMeeting): void {
  const rc: unknown = m.fields.recording_config;
  if (rc === null || typeof rc !== "object" || !Object.hasOwn(rc, "media_bucket_config")) return;
  const { media_bucket_config: bucket, ...rest } = rc as Record<string, unknown>;
  Reflect.set(m.fields, "recording_config", { realtimekit_bucket_config: bucket, ...rest });
}

export class MeetingsModel {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  private account(accountId: string): { apps: Record<string, AppMeetings> } {
    const state = this.store.area<MeetingsState>("meetings", () => ({ accounts: dict() }));
    return (state.accounts[accountId] ??= { apps: dict() });
  }

  private app(accountId: string, appId: string): AppMeetings {
    const app = (this.account(accountId).apps[appId] ??= { meetings: dict(), order: [] });
    for (const m of Object.values(app.meetings)) upgradeStored(m);
    return app;
  }

  /** A new app (a 32-hex-digit id: the contract's app ids are 1-32 characters); names need not be unique. */
  createApp(accountId: string, name: string): AppView {
    const id = randomUUID().replaceAll("-", "");
    const created_at = new Date(this.now()).toISOString();
    this.account(accountId).apps[id] = { meetings: dict(), order: [], name, created_at };
    return { id, name, created_at };
  }

  /**
   * Removes an app and its meetings, as the dashboard can (the API cannot): false when there was none.
   * For the control API, so that a test can make an app vanish out of band.
   */
  removeApp(accountId: string, appId: string): boolean {
    const apps = this.account(accountId).apps;
    if (!(appId in apps)) return false;
    delete apps[appId];
    return true;
  }

  /**
   * The apps made through the apps operation and those that exist because meetings were made in them
   * (dated by their first meeting), oldest first; an app only ever read has neither and is not listed.
   */
  apps(accountId: string): AppView[] {
    const out: AppView[] = [];
    for (const [id, app] of Object.entries(this.account(accountId).apps)) {
      const created_at = app.created_at ?? app.meetings[app.order[0] ?? ""]?.created_at;
      if (created_at === undefined) continue;
      out.push({ id, ...(app.name !== undefined ? { name: app.name } : {}), created_at });
    }
    return out.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  create(accountId: string, appId: string, fields: MeetingCreate): StoredMeeting {
    const at = new Date(this.now()).toISOString();
    const m: StoredMeeting = {
      id: randomUUID(),
      app_id: appId,
      status: "ACTIVE",
      created_at: at,
      updated_at: at,
      fields: structuredClone(fields),
    };
    const app = this.app(accountId, appId);
    app.meetings[m.id] = m;
    app.order.push(m.id);
    return m;
  }

  get(accountId: string, appId: string, id: string): StoredMeeting | undefined {
    return this.app(accountId, appId).meetings[id];
  }

  list(accountId: string, appId: string): StoredMeeting[] {
    const app = this.app(accountId, appId);
    return app.order.map((id) => app.meetings[id]!);
  }

  /** `get_all_meetings`' filters: status, created between two times, `search` in the id or the title. */
  find(accountId: string, appId: string, q: Omit<MeetingListQuery, "page_no" | "per_page">): StoredMeeting[] {
    const search = q.search?.toLowerCase();
    const from = q.start_time === undefined ? undefined : Date.parse(q.start_time);
    const to = q.end_time === undefined ? undefined : Date.parse(q.end_time);
    return this.list(accountId, appId).filter((m) => {
      const at = Date.parse(m.created_at);
      return (
        (q.status === undefined || m.status === q.status) &&
        (from === undefined || at >= from) &&
        (to === undefined || at <= to) &&
        (search === undefined ||
          m.id.toLowerCase().includes(search) ||
          (m.fields.title ?? "").toLowerCase().includes(search))
      );
    });
  }

  /** PUT: every field as the body says (what it leaves out is back to the default); status stays. */
  replace(m: StoredMeeting, fields: MeetingReplace): StoredMeeting {
    m.fields = structuredClone(fields);
    m.updated_at = new Date(this.now()).toISOString();
    return m;
  }

  /** The fields an update would leave: each top-level field in the patch replaces the stored one. */
  merged(m: StoredMeeting, patch: MeetingUpdate): MeetingCreate {
    const { status: _status, ...fields } = patch;
    return { ...m.fields, ...structuredClone(fields) };
  }

  update(m: StoredMeeting, patch: MeetingUpdate): StoredMeeting {
    m.fields = this.merged(m, patch);
    if (patch.status) m.status = patch.status;
    m.updated_at = new Date(this.now()).toISOString();
    return m;
  }
}
