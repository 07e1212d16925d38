/**
 * The two retrieval operations over the state model: search (ranked chunks) and chat completions (a
 * reply from them, kept by the instance's answer cache). Options of the request win over the
 * instance's settings, which win over the contract's defaults.
 */
import type { AiSearchOptions, ChatCompletionBody, SearchBody } from "../../sdk/schemas/search";
import { SEARCH_CHAT_MODELS } from "../../sdk/schemas/search";
import { digest, terms } from "./chunks";
import { FilterError, lastUserText, rank, replyFrom, type Ranked, type RetrievalOptions } from "./retrieval";
import { invalid, type InstanceRecord, type SearchModel } from "./state";
import { candidates } from "./views";

const DEFAULT_MODEL = SEARCH_CHAT_MODELS[0];

/** What retrieval reads of a request's options (an instance's or a namespace's request). */
type AskedOptions = Pick<AiSearchOptions, "retrieval"> & {
  reranking?: { enabled?: boolean | undefined } | undefined;
};

function optionsOf(inst: InstanceRecord, o: AskedOptions | undefined): RetrievalOptions {
  const s = inst.settings;
  const r = o?.retrieval;
  return {
    mode: r?.keyword_match_mode ?? s.retrieval_options?.keyword_match_mode ?? "and",
    threshold: r?.match_threshold ?? s.score_threshold ?? 0.4,
    max: r?.max_num_results ?? s.max_num_results ?? 10,
    fusion: r?.fusion_method ?? s.fusion_method ?? "rrf",
    reranking: o?.reranking?.enabled ?? s.reranking ?? false,
    filters: r?.filters,
  };
}

export function retrieve(
  model: SearchModel,
  inst: InstanceRecord,
  query: string,
  o: AskedOptions | undefined,
): Ranked[] {
  try {
    return rank(query, candidates(model, inst), optionsOf(inst, o));
  } catch (err) {
    if (err instanceof FilterError) throw invalid("ai_search_options.retrieval.filters", err.message);
    throw err;
  }
}

export function questionOf(body: { query?: string | undefined; messages?: SearchBody["messages"] }): string {
  const q = body.query ?? (body.messages ? lastUserText(body.messages) : undefined);
  if (q === undefined) throw invalid("messages", "must include a user message with content");
  return q;
}

export function search(model: SearchModel, inst: InstanceRecord, body: SearchBody) {
  const query = questionOf(body);
  return { chunks: retrieve(model, inst, query, body.ai_search_options), search_query: query };
}

/**
 * A reply without a model (retrieval.replyFrom). With the instance's cache on (and the request not
 * turning it off), the same question asked again within `cache_ttl` gets the same answer, id
 * included, until a purge; `super_strict_match` keys on the exact text, the other thresholds on its
 * terms.
 */
export function chat(
  model: SearchModel,
  inst: InstanceRecord,
  body: ChatCompletionBody,
): Record<string, unknown> {
  const query = questionOf(body);
  const o = body.ai_search_options;
  const modelName = body.model ?? (inst.settings.ai_search_model || DEFAULT_MODEL);
  const cacheOn = inst.settings.cache !== false && o?.cache?.enabled !== false;
  const threshold = o?.cache?.cache_threshold ?? inst.settings.cache_threshold ?? "close_enough";
  const key = `${modelName}\n${threshold === "super_strict_match" ? query : terms(query).join(" ")}`;
  const hit = cacheOn ? model.cachedAnswer(inst, key) : undefined;
  if (hit) return hit.completion;
  const chunks = retrieve(model, inst, query, o);
  const completion = {
    id: `chatcmpl-${digest(`${inst.created_at}/${inst.id}/${model.now}/${key}`, 24)}`,
    object: "chat.completion",
    model: modelName,
    choices: [{ index: 0, message: { role: "assistant", content: replyFrom(query, chunks) } }],
    chunks,
  };
  if (cacheOn) model.cacheAnswer(inst, key, completion);
  return completion;
}
