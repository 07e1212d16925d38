/**
 * The building blocks of the search area's request schemas, each with a message that says the rule,
 * and the model catalogues of the public contract (they change with the service: the sdk refuses a
 * model the contract does not list, as the service would).
 */
import { z } from "zod";

export const requiredString = (what = "a string") =>
  z.string({ error: (iss) => (iss.input === undefined ? "is required" : `must be ${what}`) });

/**
 * Refuses unknown fields (typos never pass silently). The issue sits on the object; readers name each
 * key as the field (sdk/validate.ts, emulator/search/routes/context.ts), so the rule text stays generic.
 */
export function strict<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? "is not an allowed field"
        : iss.input === undefined
          ? "is required"
          : "must be an object",
  });
}

export const bool = () => z.boolean({ error: "must be a boolean" });

const range = (min: number, max: number, unit: string): string =>
  max === Number.MAX_SAFE_INTEGER
    ? `must be at least ${min}${unit}`
    : `must be between ${min} and ${max}${unit}`;

export const intIn = (min: number, max: number, unit = "") =>
  z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(min, range(min, max, unit))
    .max(max, range(min, max, unit));

export const numberIn = (min: number, max: number, unit = "") =>
  z
    .number({ error: "must be a number" })
    .min(min, range(min, max, unit))
    .max(max, range(min, max, unit));

/** An integer query parameter (query values arrive as text). */
export const queryInt = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(min, range(min, max, ""))
    .max(max, range(min, max, ""))
    .optional();

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

export const oneOfNumbers = <const T extends readonly [number, ...number[]]>(values: T, unit = "") =>
  z.literal(values, { error: `must be one of ${values.join(", ")}${unit}` });

/** Text generation models (`ai_search_model`, `rewrite_model`, `summarization_model`, chat `model`). */
export const SEARCH_CHAT_MODELS = [
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  "@cf/zai-org/glm-4.7-flash",
  "@cf/meta/llama-3.1-8b-instruct-fast",
  "@cf/meta/llama-3.1-8b-instruct-fp8",
  "@cf/meta/llama-4-scout-17b-16e-instruct",
  "@cf/qwen/qwen3-30b-a3b-fp8",
  "@cf/deepseek-ai/deepseek-r1-distill-qwen-32b",
  "@cf/moonshotai/kimi-k2-instruct",
  "@cf/google/gemma-3-12b-it",
  "@cf/google/gemma-4-26b-a4b-it",
  "@cf/moonshotai/kimi-k2.5",
  "anthropic/claude-3-7-sonnet",
  "anthropic/claude-sonnet-4",
  "anthropic/claude-opus-4",
  "anthropic/claude-3-5-haiku",
  "cerebras/qwen-3-235b-a22b-instruct",
  "cerebras/qwen-3-235b-a22b-thinking",
  "cerebras/llama-3.3-70b",
  "cerebras/llama-4-maverick-17b-128e-instruct",
  "cerebras/llama-4-scout-17b-16e-instruct",
  "cerebras/gpt-oss-120b",
  "google-ai-studio/gemini-2.5-flash",
  "google-ai-studio/gemini-2.5-pro",
  "grok/grok-4",
  "groq/llama-3.3-70b-versatile",
  "groq/llama-3.1-8b-instant",
  "openai/gpt-5",
  "openai/gpt-5-mini",
  "openai/gpt-5-nano",
] as const;

export const SEARCH_EMBEDDING_MODELS = [
  "@cf/qwen/qwen3-embedding-0.6b",
  "@cf/baai/bge-m3",
  "@cf/baai/bge-large-en-v1.5",
  "@cf/google/embeddinggemma-300m",
  "google-ai-studio/gemini-embedding-001",
  "google-ai-studio/gemini-embedding-2-preview",
  "openai/text-embedding-3-small",
  "openai/text-embedding-3-large",
] as const;

export const SEARCH_RERANKING_MODELS = ["@cf/baai/bge-reranker-base"] as const;
