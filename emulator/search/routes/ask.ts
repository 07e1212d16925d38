/**
 * Retrieval over an instance: search (in the envelope) and chat completions (outside it), under both
 * bases; and the same two across instances of a namespace.
 */
import type { FastifyInstance } from "fastify";
import type { AreaContext } from "../../area";
import { orEmpty } from "../../define";
import { parseWith } from "../../http";
import {
  ChatCompletionBodySchema,
  ChatCompletionSchema,
  NamespaceChatCompletionBodySchema,
  NamespaceChatCompletionSchema,
  NamespaceSearchBodySchema,
  NamespaceSearchResultSchema,
  SearchBodySchema,
  SearchResultSchema,
} from "../../../sdk/schemas/search";
import { chat, search } from "../ask";
import { chatNamespace, searchNamespace } from "../ask-namespace";
import * as G from "../../../sdk/generated/search";
import { BASES, INVALID, bareRoute, under, type SearchArea } from "./context";

const NAMESPACE = "/accounts/:account_id/ai-search/namespaces/:name";

export function searchRoute(area: SearchArea, base: string): void {
  area.post(
    `${base}/:id/search`,
    {
      params: under(base, G.AiSearchInstanceSearchPath, G.AiSearchNamespaceInstanceSearchPath),
      body: orEmpty(SearchBodySchema),
      response: SearchResultSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => search(model, model.instance(ns, params.id), body),
  );
}

export function chatRoutes(app: FastifyInstance, ctx: AreaContext): void {
  for (const base of BASES) {
    bareRoute(
      app,
      ctx,
      "POST",
      `${base}/:id/chat/completions`,
      under(base, G.AiSearchInstanceChatCompletionPath, G.AiSearchNamespaceInstanceChatCompletionPath),
      ({ caller: { model, ns }, params, body, reply }) => {
        const parsed = parseWith(ChatCompletionBodySchema, body, INVALID);
        const completion = chat(model, model.instance(ns, params.id), parsed);
        ChatCompletionSchema.parse(completion); // an emulator bug, not the caller's, if it does not fit
        return reply.code(200).send(completion);
      },
    );
  }
}

/** Search across the namespace's instances named in `ai_search_options.instance_ids`. */
export function namespaceSearchRoute(area: SearchArea): void {
  area.post(
    `${NAMESPACE}/search`,
    {
      params: G.AiSearchNamespaceMultiInstanceSearchPath,
      body: NamespaceSearchBodySchema,
      response: NamespaceSearchResultSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, body }) => searchNamespace(model, ns, body),
  );
}

/** Chat across the namespace's instances: outside the envelope, as an instance's chat. */
export function namespaceChatRoute(app: FastifyInstance, ctx: AreaContext): void {
  bareRoute(
    app,
    ctx,
    "POST",
    `${NAMESPACE}/chat/completions`,
    G.AiSearchNamespaceMultiInstanceChatCompletionPath,
    ({ caller: { model, ns }, body, reply }) => {
      const parsed = parseWith(NamespaceChatCompletionBodySchema, body, INVALID);
      const completion = chatNamespace(model, ns, parsed);
      NamespaceChatCompletionSchema.parse(completion); // an emulator bug, not the caller's, if it does not fit
      return reply.code(200).send(completion);
    },
  );
}
