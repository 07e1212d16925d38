/**
 * What the search API returns, rendered from the state model: instances with every field the
 * contract's response lists (null where the contract allows null and nothing is set), jobs, their
 * logs, stats, items, chunks and item logs.
 */
import type { z } from "zod";
import { iso } from "../clock";
import {
  JOB_LOG_TYPES,
  type SearchInstanceSchema,
  type SearchJobLogSchema,
  type SearchJobSchema,
  type SearchItemSchema,
  type ItemChunkSchema,
  type ItemLogSchema,
} from "../../sdk/schemas/search";
import { chunkText, digest } from "./chunks";
import type { Candidate } from "./retrieval";
import { itemId, type InstanceRecord, type NamespaceRecord, type SearchModel } from "./state";
import { statsOf, type ItemState, type JobRecord, type JobState } from "./sync";

/** Settings the contract's responses may carry as null: rendered null while unset. */
const NULL_WHEN_UNSET = [
  "type",
  "source",
  "source_params",
  "ai_gateway_id",
  "ai_search_model",
  "embedding_model",
  "rewrite_model",
  "reranking_model",
  "summarization_model",
  "indexing_options",
  "retrieval_options",
  "system_prompt_ai_search",
  "system_prompt_index_summarization",
  "system_prompt_rewrite_query",
] as const;

/** The service's current indexing engine, as its responses report it. */
const ENGINE_VERSION = 3;

export function instanceView(
  model: SearchModel,
  ns: NamespaceRecord,
  inst: InstanceRecord,
): z.input<typeof SearchInstanceSchema> {
  const r = model.replay(inst);
  const last = r.jobs[r.jobs.length - 1];
  const running = last !== undefined && last.ended_at === undefined;
  const unset = Object.fromEntries(NULL_WHEN_UNSET.map((k) => [k, null]));
  const endpoint = inst.settings.public_endpoint_params?.enabled === true;
  return {
    id: inst.id,
    namespace: ns.name,
    ...unset,
    ...inst.settings,
    engine_version: ENGINE_VERSION,
    public_endpoint_id: endpoint ? digest(`${inst.created_at}/${inst.id}/endpoint`) : null,
    created_at: iso(inst.created_at),
    modified_at: iso(inst.modified_at),
    created_by: inst.created_by,
    modified_by: inst.modified_by,
    status: inst.settings.paused ? "paused" : running ? "syncing" : last ? "ready" : "waiting",
    enable: true,
    last_activity: last ? iso(last.last_seen_at) : null,
  };
}

function replayed(model: SearchModel, inst: InstanceRecord, job: JobRecord): JobState {
  const state = model.replay(inst).jobs.find((j) => j.record.id === job.id);
  if (!state) throw new Error(`search: job ${job.id} is not in the history of instance ${inst.id}`);
  return state;
}

/** `ended_at` and `end_reason` appear once the job has ended. */
export function jobView(
  model: SearchModel,
  inst: InstanceRecord,
  job: JobRecord,
): z.input<typeof SearchJobSchema> {
  const state = replayed(model, inst, job);
  return {
    id: job.id,
    source: job.source,
    description: job.description,
    started_at: iso(job.started_at),
    last_seen_at: iso(state.last_seen_at),
    ...(state.ended_at !== undefined
      ? { ended_at: iso(state.ended_at), end_reason: state.end_reason ?? "completed" }
      : {}),
  };
}

/** Newest first. */
export function jobViews(model: SearchModel, inst: InstanceRecord): z.input<typeof SearchJobSchema>[] {
  return [...inst.jobs].reverse().map((j) => jobView(model, inst, j));
}

/** Times in Unix seconds, message types as numbers (JOB_LOG_TYPES). */
export function logViews(
  model: SearchModel,
  inst: InstanceRecord,
  job: JobRecord,
): z.input<typeof SearchJobLogSchema>[] {
  return replayed(model, inst, job).logs.map((l) => ({
    id: l.id,
    created_at: l.created_at / 1000,
    message: l.message,
    message_type: JOB_LOG_TYPES[l.message_type],
  }));
}

/** `last_activity` appears once a job has run (the contract's field is a date-time, never null). */
export function statsView(model: SearchModel, inst: InstanceRecord): Record<string, unknown> {
  const r = model.replay(inst);
  const last = r.jobs[r.jobs.length - 1];
  return { ...statsOf(r), ...(last ? { last_activity: iso(last.last_seen_at) } : {}) };
}

function chunksOf(inst: InstanceRecord, item: ItemState) {
  return item.status === "completed" ? chunkText(item.text, inst.settings) : [];
}

export function itemView(
  ns: NamespaceRecord,
  inst: InstanceRecord,
  item: ItemState,
): z.input<typeof SearchItemSchema> {
  return {
    id: itemId(inst, item.key),
    key: item.key,
    status: item.status,
    checksum: digest(item.text),
    chunks_count: item.status === "completed" ? chunksOf(inst, item).length : null,
    created_at: iso(item.created_at),
    last_seen_at: iso(item.last_seen_at),
    file_size: Buffer.byteLength(item.text),
    namespace: ns.name,
    next_action: item.status === "queued" ? "INDEX" : null,
    source_id: item.source_id,
    ...(item.error !== undefined ? { error: item.error } : {}),
  };
}

function chunkItem(item: ItemState) {
  return {
    key: item.key,
    ...(item.metadata ? { metadata: item.metadata } : {}),
    timestamp: Math.floor(item.last_seen_at / 1000),
  };
}

export function chunkViews(inst: InstanceRecord, item: ItemState): z.input<typeof ItemChunkSchema>[] {
  const id = itemId(inst, item.key);
  return chunksOf(inst, item).map((c) => ({
    id: `${id}-${c.index}`,
    text: c.text,
    start_byte: c.start_byte,
    end_byte: c.end_byte,
    item: chunkItem(item),
  }));
}

/** Newest first. */
export function itemLogViews(inst: InstanceRecord, item: ItemState): z.input<typeof ItemLogSchema>[] {
  const chunks = chunksOf(inst, item).length;
  return [...item.log].reverse().map((l) => ({
    action: l.action,
    message:
      l.action === "SKIP"
        ? `Skipped ${item.key}: unchanged since last sync`
        : l.error === null
          ? `Indexed ${item.key}`
          : `Failed to index ${item.key}: ${l.error}`,
    chunkCount: l.action === "INDEX" && l.error === null ? chunks : null,
    errorType: l.error,
    fileKey: item.key,
    processingTimeMs: l.processing_ms,
    timestamp: iso(l.at),
  }));
}

/** Every chunk of every indexed item: what search ranks. */
export function candidates(model: SearchModel, inst: InstanceRecord): Candidate[] {
  return Object.values(model.replay(inst).items).flatMap((item) => {
    const id = itemId(inst, item.key);
    return chunksOf(inst, item).map((chunk) => ({
      id: `${id}-${chunk.index}`,
      key: item.key,
      metadata: item.metadata,
      indexed_at: item.last_seen_at,
      chunk,
    }));
  });
}
