/**
 * What lives inside a meeting, while it is ACTIVE: its participants (who may join, each with a
 * token), its session (who is in it now, muted or not, its polls) and its livestreams
 * (./livestreams). Plain JSON in the store, never HTTP. Consistent with itself: a kicked or deleted
 * participant is out of the session; a session ends when the last participant has been gone for the
 * meeting's keep-alive (on the emulator's clock); a stopped livestream is no longer active; setting
 * the meeting INACTIVE ends its session and stops its livestream.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import type {
  ActiveSessionSchema,
  DeletedParticipantSchema,
  LivestreamStart,
  ParticipantCreate,
  ParticipantSchema,
  ParticipantUpdate,
  PollCreate,
  PollSchema,
  SessionParticipantSchema,
} from "../../sdk/schemas/meetings-live";
import { dict, type Dict, type Store } from "../store";
import { inactive, missing, nobodyNamed, noneActive, taken } from "./errors";
import {
  activeLivestream,
  livestreamHistory,
  startLivestream,
  stopLivestream,
  type LivestreamView,
  type MeetingStreams,
  type StoredLivestream,
} from "./livestreams";
import type { StoredMeeting } from "./state";

export interface StoredParticipant {
  id: string;
  custom_participant_id: string;
  preset_name: string;
  name?: string | null;
  picture?: string | null;
  /** What the participant joins with; a new one replaces it. */
  token: string;
  created_at: string;
  updated_at: string;
}

interface StoredPoll {
  id: string;
  question: string;
  options: string[];
  anonymous: boolean;
  hide_votes: boolean;
  created_by: string;
  created_at: string;
}

export interface StoredSession {
  id: string;
  status: "LIVE" | "ENDED";
  started_at: string;
  updated_at: string;
  ended_at?: string;
  /** Participant ids in the session now, in the order they joined. */
  live: string[];
  muted: string[];
  /** Set by mute-all: whether the muted may unmute themselves. */
  allow_unmute?: boolean;
  max_concurrent: number;
  /** When the session last became empty: it ends a keep-alive later unless someone joins. */
  emptied_at?: string;
  polls: StoredPoll[];
}

interface MeetingLive extends MeetingStreams {
  participants: Dict<StoredParticipant>;
  order: string[];
  session?: StoredSession;
}

interface LiveState {
  accounts: Dict<{ apps: Dict<{ presets: Dict<string>; meetings: Dict<MeetingLive> }> }>;
}

export type ParticipantView = z.input<typeof ParticipantSchema>;
export type SessionView = z.input<typeof ActiveSessionSchema>;
export type SessionParticipantView = z.input<typeof SessionParticipantSchema>;
export type PollView = z.input<typeof PollSchema>;
export type DeletedView = z.input<typeof DeletedParticipantSchema>;

/** The service's keep-alive when a meeting sets none. */
const KEEP_ALIVE_DEFAULT_SECONDS = 60;

/** Who a kick or a mute names: ids, or the program's own custom ids. */
export interface Named {
  participant_ids: readonly string[];
  custom_participant_ids: readonly string[];
}

export class LiveModel {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  #at(): string {
    return new Date(this.now()).toISOString();
  }

  #app(accountId: string, appId: string) {
    const state = this.store.area<LiveState>("meetings-live", () => ({ accounts: dict() }));
    const account = (state.accounts[accountId] ??= { apps: dict() });
    return (account.apps[appId] ??= { presets: dict(), meetings: dict() });
  }

  #live(accountId: string, m: StoredMeeting): MeetingLive {
    const app = this.#app(accountId, m.app_id);
    return (app.meetings[m.id] ??= { participants: dict(), order: [], livestreams: [], runs: [] });
  }

  /** The meeting's live state; participants and what they do exist only while it is ACTIVE. */
  #active(accountId: string, m: StoredMeeting): MeetingLive {
    if (m.status !== "ACTIVE") throw inactive(m.id);
    return this.#live(accountId, m);
  }

  // ---- participants ----

  participants(accountId: string, m: StoredMeeting): StoredParticipant[] {
    const live = this.#active(accountId, m);
    return live.order.map((id) => live.participants[id]!);
  }

  add(accountId: string, m: StoredMeeting, body: ParticipantCreate): StoredParticipant {
    const live = this.#active(accountId, m);
    const same = live.order.find(
      (id) => live.participants[id]!.custom_participant_id === body.custom_participant_id,
    );
    if (same !== undefined)
      throw taken(`custom_participant_id ${body.custom_participant_id} is already participant ${same}`);
    const at = this.#at();
    const p: StoredParticipant = {
      id: randomUUID(),
      custom_participant_id: body.custom_participant_id,
      preset_name: body.preset_name,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.picture !== undefined ? { picture: body.picture } : {}),
      token: newToken(),
      created_at: at,
      updated_at: at,
    };
    live.participants[p.id] = p;
    live.order.push(p.id);
    return p;
  }

  participant(accountId: string, m: StoredMeeting, participantId: string): StoredParticipant {
    const p = this.#active(accountId, m).participants[participantId];
    if (!p) throw missing(`participant ${participantId} of meeting ${m.id}`);
    return p;
  }

  edit(
    accountId: string,
    m: StoredMeeting,
    participantId: string,
    body: ParticipantUpdate,
  ): StoredParticipant {
    const p = this.participant(accountId, m, participantId);
    if (body.name !== undefined) p.name = body.name;
    if (body.picture !== undefined) p.picture = body.picture;
    // A participant always has a preset: null keeps the one it has.
    if (body.preset_name != null) p.preset_name = body.preset_name;
    p.updated_at = this.#at();
    return p;
  }

  /** Removes the participant, from the session too; answers it as it was, with its preset's id. */
  remove(accountId: string, m: StoredMeeting, participantId: string): DeletedView {
    const p = this.participant(accountId, m, participantId);
    const live = this.#live(accountId, m);
    this.#leave(m, live, [p.id]);
    Reflect.deleteProperty(live.participants, p.id);
    live.order = live.order.filter((id) => id !== p.id);
    return {
      custom_participant_id: p.custom_participant_id,
      preset_id: this.#presetId(accountId, m.app_id, p.preset_name),
      created_at: p.created_at,
      updated_at: p.updated_at,
    };
  }

  regenerateToken(accountId: string, m: StoredMeeting, participantId: string): string {
    const p = this.participant(accountId, m, participantId);
    p.token = newToken();
    p.updated_at = this.#at();
    return p.token;
  }

  /** Presets are the app's (not part of this API): each name gets an id the first time it is seen. */
  #presetId(accountId: string, appId: string, name: string): string {
    const presets = this.#app(accountId, appId).presets;
    return (presets[name] ??= randomUUID());
  }

  // ---- joining (the emulator's stand-in for a client that joins with its token) ----

  /** The participant holding this token joins the session, which starts if none is live. */
  join(accountId: string, m: StoredMeeting, token: string): StoredSession {
    const live = this.#active(accountId, m);
    const p = live.order.map((id) => live.participants[id]!).find((x) => x.token === token);
    if (!p) throw missing(`participant with this token in meeting ${m.id}`);
    const at = this.#at();
    let s = this.#session(m, live);
    if (!s) {
      s = {
        id: randomUUID(),
        status: "LIVE",
        started_at: at,
        updated_at: at,
        live: [],
        muted: [],
        max_concurrent: 0,
        polls: [],
      };
      live.session = s;
    }
    if (!s.live.includes(p.id)) s.live.push(p.id);
    s.max_concurrent = Math.max(s.max_concurrent, s.live.length);
    delete s.emptied_at;
    s.updated_at = at;
    return s;
  }

  leave(accountId: string, m: StoredMeeting, token: string): void {
    const live = this.#active(accountId, m);
    const p = live.order.map((id) => live.participants[id]!).find((x) => x.token === token);
    if (p) this.#leave(m, live, [p.id]);
  }

  // ---- the active session ----

  /** The live session, after ending it if it has been empty for the keep-alive; undefined if none. */
  #session(m: StoredMeeting, live: MeetingLive): StoredSession | undefined {
    const s = live.session;
    if (!s || s.status !== "LIVE") return undefined;
    if (s.emptied_at !== undefined) {
      const keepAlive = (m.fields.session_keep_alive_time_in_secs ?? KEEP_ALIVE_DEFAULT_SECONDS) * 1000;
      const endsAt = Date.parse(s.emptied_at) + keepAlive;
      if (this.now() >= endsAt) {
        this.#end(s, new Date(endsAt).toISOString());
        return undefined;
      }
    }
    return s;
  }

  #end(s: StoredSession, at: string): void {
    s.status = "ENDED";
    s.ended_at = at;
    s.updated_at = at;
    s.live = [];
  }

  #leave(m: StoredMeeting, live: MeetingLive, ids: readonly string[]): void {
    const s = this.#session(m, live);
    if (!s) return;
    const before = s.live.length;
    s.live = s.live.filter((id) => !ids.includes(id));
    s.muted = s.muted.filter((id) => !ids.includes(id));
    if (s.live.length === before) return;
    s.updated_at = this.#at();
    if (s.live.length === 0) s.emptied_at = s.updated_at;
  }

  /** The session going on now; a 404 when there is none (an INACTIVE meeting has none). */
  activeSession(accountId: string, m: StoredMeeting): SessionView {
    const live = this.#live(accountId, m);
    const s = m.status === "ACTIVE" ? this.#session(m, live) : undefined;
    if (!s) throw noneActive("active session", m.id);
    const minutes = Math.max(0, this.now() - Date.parse(s.started_at)) / 60_000;
    return {
      id: s.id,
      associated_id: m.id,
      meeting_display_name: m.fields.title ?? "",
      type: "meeting",
      status: s.status,
      live_participants: s.live.length,
      max_concurrent_participants: s.max_concurrent,
      minutes_consumed: Math.round(minutes * 100) / 100,
      organization_id: m.app_id,
      started_at: s.started_at,
      created_at: s.started_at,
      updated_at: s.updated_at,
      meta: {
        muted_participant_ids: [...s.muted],
        ...(s.allow_unmute !== undefined ? { allow_unmute: s.allow_unmute } : {}),
      },
      breakout_rooms: [],
    };
  }

  /** The session and who in it the request names; a 404 when no session, or none of them is in it. */
  #named(
    accountId: string,
    m: StoredMeeting,
    who: Named,
  ): { s: StoredSession; live: MeetingLive; ids: string[] } {
    const live = this.#live(accountId, m);
    const s = m.status === "ACTIVE" ? this.#session(m, live) : undefined;
    if (!s) throw noneActive("active session", m.id);
    const ids = s.live.filter((id) => {
      const p = live.participants[id]!;
      return who.participant_ids.includes(id) || who.custom_participant_ids.includes(p.custom_participant_id);
    });
    if (!ids.length) throw nobodyNamed(m.id);
    return { s, live, ids };
  }

  kick(accountId: string, m: StoredMeeting, who: Named): SessionParticipantView[] {
    const { live, ids } = this.#named(accountId, m, who);
    const kicked = ids.map((id) => sessionParticipant(live.participants[id]!));
    this.#leave(m, live, ids);
    return kicked;
  }

  kickAll(accountId: string, m: StoredMeeting): number {
    const live = this.#live(accountId, m);
    const s = m.status === "ACTIVE" ? this.#session(m, live) : undefined;
    if (!s) throw noneActive("active session", m.id);
    const count = s.live.length;
    this.#leave(m, live, [...s.live]);
    return count;
  }

  mute(accountId: string, m: StoredMeeting, who: Named): SessionParticipantView[] {
    const { s, live, ids } = this.#named(accountId, m, who);
    s.muted = [...new Set([...s.muted, ...ids])];
    s.updated_at = this.#at();
    return ids.map((id) => sessionParticipant(live.participants[id]!));
  }

  muteAll(accountId: string, m: StoredMeeting, allowUnmute: boolean): number {
    const live = this.#live(accountId, m);
    const s = m.status === "ACTIVE" ? this.#session(m, live) : undefined;
    if (!s) throw noneActive("active session", m.id);
    s.muted = [...s.live];
    s.allow_unmute = allowUnmute;
    s.updated_at = this.#at();
    return s.live.length;
  }

  poll(accountId: string, m: StoredMeeting, body: PollCreate): PollView {
    const live = this.#live(accountId, m);
    const s = m.status === "ACTIVE" ? this.#session(m, live) : undefined;
    if (!s) throw noneActive("active session", m.id);
    const poll: StoredPoll = {
      id: randomUUID(),
      question: body.question,
      options: [...body.options],
      anonymous: body.anonymous ?? false,
      hide_votes: body.hide_votes ?? false,
      created_by: "api",
      created_at: this.#at(),
    };
    s.polls.push(poll);
    return pollView(poll);
  }

  // ---- livestreams (./livestreams) ----

  startLivestream(accountId: string, m: StoredMeeting, body: LivestreamStart): StoredLivestream {
    return startLivestream(this.#active(accountId, m), m, body, this.#at());
  }

  activeLivestream(accountId: string, m: StoredMeeting): LivestreamView {
    return activeLivestream(this.#live(accountId, m), m);
  }

  stopLivestream(accountId: string, m: StoredMeeting): void {
    if (!stopLivestream(this.#live(accountId, m), this.#at())) throw noneActive("active livestream", m.id);
  }

  livestreams(accountId: string, m: StoredMeeting): ReturnType<typeof livestreamHistory> {
    return livestreamHistory(this.#live(accountId, m), m);
  }

  // ---- the meeting's own changes ----

  /** INACTIVE: nobody can be in it, so its session ends and its livestream stops. */
  deactivated(accountId: string, m: StoredMeeting): void {
    const live = this.#live(accountId, m);
    const s = this.#session(m, live);
    if (s) this.#end(s, this.#at());
    stopLivestream(live, this.#at());
  }

  /** Everything inside a meeting, for the control API. */
  snapshot(accountId: string, m: StoredMeeting): MeetingLive {
    return structuredClone(this.#live(accountId, m));
  }
}

function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export function participantView(p: StoredParticipant, withToken: boolean): ParticipantView {
  return {
    id: p.id,
    custom_participant_id: p.custom_participant_id,
    preset_name: p.preset_name,
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(p.picture !== undefined ? { picture: p.picture } : {}),
    created_at: p.created_at,
    updated_at: p.updated_at,
    ...(withToken ? { token: p.token } : {}),
  };
}

/** Kick and mute answer name and picture as strings (never null). */
function sessionParticipant(p: StoredParticipant): SessionParticipantView {
  return {
    id: p.id,
    ...(p.name != null ? { name: p.name } : {}),
    ...(p.picture != null ? { picture: p.picture } : {}),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

function pollView(p: StoredPoll): PollView {
  return {
    id: p.id,
    question: p.question,
    options: p.options.map((text) => ({ text, count: 0, votes: [] })),
    anonymous: p.anonymous,
    hide_votes: p.hide_votes,
    created_by: p.created_by,
    voted: [],
  };
}
