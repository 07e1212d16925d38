/**
 * Provider configuration from the stack config handed to `configure` (namespace `account-api`),
 * falling back to the environment. Nothing here is captured into state.
 */
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
  return config;
}
