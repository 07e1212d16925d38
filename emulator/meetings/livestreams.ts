/**
 * A meeting's livestreams: one runs at a time, LIVE from its start; a stop makes it IDLE and ends
 * its run. Functions over the meeting's stored lists (./live keeps them); the views are the
 * contract's shapes.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import type {
  ListedLivestreamSchema,
  LivestreamSchema,
  LivestreamSessionSchema,
  LivestreamStart,
} from "../../sdk/schemas/meetings-live";
import { noneActive, taken } from "./errors";
import type { StoredMeeting } from "./state";

export interface StoredLivestream {
  id: string;
  name: string | null;
  status: "LIVE" | "IDLE";
  ingest_server: string;
  stream_key: string;
  playback_url: string;
  created_at: string;
  updated_at: string;
  video_config?: { height?: number; width?: number };
}

/** One run of a livestream, from start to stop. */
export interface LivestreamRun {
  id: string;
  livestream_id: string;
  invoked_time: string;
  started_time: string;
  stopped_time?: string;
  updated_at: string;
}

/** What a meeting keeps of its livestreams, oldest first. */
export interface MeetingStreams {
  livestreams: StoredLivestream[];
  runs: LivestreamRun[];
}

export type LivestreamView = z.input<typeof LivestreamSchema>;
/** The details' list types `disabled` as a boolean, the active livestream as a string. */
export type ListedLivestreamView = z.input<typeof ListedLivestreamSchema>;
export type LivestreamRunView = z.input<typeof LivestreamSessionSchema>;

export function startLivestream(
  streams: MeetingStreams,
  m: StoredMeeting,
  body: LivestreamStart,
  at: string,
): StoredLivestream {
  const running = streams.livestreams.find((l) => l.status === "LIVE");
  if (running) throw taken(`meeting ${m.id} is already livestreaming (livestream ${running.id})`);
  const id = randomUUID();
  const stream: StoredLivestream = {
    id,
    name: body.name ?? null,
    status: "LIVE",
    ingest_server: "rtmps://live.emulator.invalid:443/live/",
    stream_key: randomBytes(16).toString("hex"),
    playback_url: `https://live.emulator.invalid/${id}/manifest/video.m3u8`,
    created_at: at,
    updated_at: at,
    ...(body.video_config ? { video_config: { ...body.video_config } } : {}),
  };
  streams.livestreams.push(stream);
  streams.runs.push({
    id: randomUUID(),
    livestream_id: id,
    invoked_time: at,
    started_time: at,
    updated_at: at,
  });
  return stream;
}

/** The one running; a 404 when none is. */
export function activeLivestream(streams: MeetingStreams, m: StoredMeeting): LivestreamView {
  const stream = streams.livestreams.find((l) => l.status === "LIVE");
  if (!stream) throw noneActive("active livestream", m.id);
  // This operation's contract types `disabled` as a string.
  return { ...livestreamView(m, stream), disabled: "false" };
}

/** Stops the one running; false when none is. */
export function stopLivestream(streams: MeetingStreams, at: string): boolean {
  const stream = streams.livestreams.find((l) => l.status === "LIVE");
  if (!stream) return false;
  stream.status = "IDLE";
  stream.updated_at = at;
  const run = streams.runs.findLast((r) => r.livestream_id === stream.id);
  if (run) {
    run.stopped_time = at;
    run.updated_at = at;
  }
  return true;
}

/** Every livestream of the meeting, oldest first, and the latest run. */
export function livestreamHistory(
  streams: MeetingStreams,
  m: StoredMeeting,
): { streams: ListedLivestreamView[]; latest?: LivestreamRunView } {
  const last = streams.runs.at(-1);
  return {
    streams: streams.livestreams.map((l) => ({ ...livestreamView(m, l), disabled: false })),
    ...(last ? { latest: runView(last) } : {}),
  };
}

function livestreamView(m: StoredMeeting, l: StoredLivestream): Omit<LivestreamView, "disabled"> {
  return {
    id: l.id,
    name: l.name,
    meeting_id: m.id,
    status: l.status,
    ingest_server: l.ingest_server,
    stream_key: l.stream_key,
    playback_url: l.playback_url,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

function runView(r: LivestreamRun): LivestreamRunView {
  const seconds = r.stopped_time
    ? (Date.parse(r.stopped_time) - Date.parse(r.started_time)) / 1000
    : undefined;
  return {
    id: r.id,
    livestream_id: r.livestream_id,
    invoked_time: r.invoked_time,
    started_time: r.started_time,
    ...(r.stopped_time ? { stopped_time: r.stopped_time } : {}),
    ...(seconds !== undefined ? { ingest_seconds: String(Math.round(seconds)) } : {}),
    created_at: r.invoked_time,
    updated_at: r.updated_at,
  };
}
