/**
 * Provider configuration from the stack config handed to `configure` (namespace `account-api`),
 * falling back to the environment. Nothing here is captured into state.
 */
import { ConfigurationError } from "../sdk/errors";
import type { ProviderConfig } from "./types";

export const CONFIG_NAMESPACE = "account-api";

/** The subset of the dynamic provider's config object we use. */
export interface RawConfigReader {
  get(key: string): string | undefined;
}

export function readProviderConfig(
  reader: RawConfigReader | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderConfig {
  const get = (key: string): string | undefined => {
    const v = reader?.get(`${CONFIG_NAMESPACE}:${key}`);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const pick = (a: string | undefined, b: string | undefined): string | undefined => a ?? (b || undefined);
  const config: ProviderConfig = {};
  const apiToken = pick(get("apiToken"), env.ACCOUNT_API_TOKEN);
  const accountId = pick(get("accountId"), env.ACCOUNT_API_ACCOUNT_ID);
  const baseUrl = pick(get("baseUrl"), env.ACCOUNT_API_BASE_URL);
  if (apiToken) config.apiToken = apiToken;
  if (accountId) config.accountId = accountId;
  if (baseUrl) config.baseUrl = baseUrl;
  const deadlineMs = whole("deadlineMs", pick(get("deadlineMs"), env.ACCOUNT_API_DEADLINE_MS), 1_000);
  const maxRetries = whole("maxRetries", pick(get("maxRetries"), env.ACCOUNT_API_MAX_RETRIES), 0);
  if (deadlineMs !== undefined) config.deadlineMs = deadlineMs;
  if (maxRetries !== undefined) config.maxRetries = maxRetries;
  return config;
}

/** A whole number of at least `min`, or undefined when unset; anything else names the setting. */
function whole(key: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < min)
    throw new ConfigurationError(`${CONFIG_NAMESPACE}:${key}: must be a whole number of at least ${min}`);
  return n;
}
