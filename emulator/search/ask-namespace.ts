/**
 * Retrieval across a namespace's instances (`POST /namespaces/{name}/search` and `/chat/completions`):
 * each instance named in `ai_search_options.instance_ids` is searched with its own settings under the
 * request's options (./ask), its chunks tagged with its id, and the lot ranked by score (ties by
 * instance id, then chunk id) and cut to the request's `max_num_results` (10 by default). An instance
 * the namespace does not hold is reported in `errors` while the others answer; when none of them
 * exists, the request is a 404 (docs/assumptions.md, "Families (issue 26)": search namespaces).
 */
import type {
  NamespaceChatCompletionBody,
  NamespaceSearchBody,
  NamespaceSearchOptions,
} from "../../sdk/schemas/search";
import { SEARCH_CHAT_MODELS } from "../../sdk/schemas/search";
import { DomainError, notFound } from "../http";
import { digest } from "./chunks";
import { questionOf, retrieve } from "./ask";
import { replyFrom, type Ranked } from "./retrieval";
import type { NamespaceRecord, SearchModel } from "./state";

const DEFAULT_MAX = 10;

type Tagged = Ranked & { instance_id: string };
type Failure = { instance_id: string; message: string };

function across(
  model: SearchModel,
  ns: NamespaceRecord,
  query: string,
  o: NamespaceSearchOptions,
): { chunks: Tagged[]; errors: Failure[] } {
  const chunks: Tagged[] = [];
  const errors: Failure[] = [];
  const ids = [...new Set(o.instance_ids)];
  for (const id of ids) {
    let found;
    try {
      found = model.instance(ns, id);
    } catch (err) {
      if (!(err instanceof DomainError) || err.status !== 404) throw err;
      errors.push({ instance_id: id, message: `instance "${id}" not found in namespace "${ns.name}"` });
      continue;
    }
    for (const c of retrieve(model, found, query, o)) chunks.push({ ...c, instance_id: id });
  }
  if (errors.length === ids.length)
    throw notFound(`instances ${ids.map((id) => `"${id}"`).join(", ")} in namespace "${ns.name}"`);
  chunks.sort((a, b) => b.score - a.score || compare(a.instance_id, b.instance_id) || compare(a.id, b.id));
  return { chunks: chunks.slice(0, o.retrieval?.max_num_results ?? DEFAULT_MAX), errors };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function searchNamespace(model: SearchModel, ns: NamespaceRecord, body: NamespaceSearchBody) {
  const query = questionOf(body);
  const { chunks, errors } = across(model, ns, query, body.ai_search_options);
  return { chunks, search_query: query, ...(errors.length > 0 ? { errors } : {}) };
}

/** A reply from the merged chunks (no answer cache: it is an instance's setting, not a namespace's). */
export function chatNamespace(
  model: SearchModel,
  ns: NamespaceRecord,
  body: NamespaceChatCompletionBody,
): Record<string, unknown> {
  const query = questionOf(body);
  const { chunks, errors } = across(model, ns, query, body.ai_search_options);
  const modelName = body.model ?? SEARCH_CHAT_MODELS[0];
  return {
    id: `chatcmpl-${digest(`${ns.name}/${ns.created_at}/${model.now}/${modelName}/${query}`, 24)}`,
    object: "chat.completion",
    model: modelName,
    choices: [{ index: 0, message: { role: "assistant", content: replyFrom(query, chunks) } }],
    chunks,
    ...(errors.length > 0 ? { errors } : {}),
  };
}
