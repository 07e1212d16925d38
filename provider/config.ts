/**
 * Provider configuration from the stack config handed to `configure` (namespace `account-api`),
 * falling back to the environment. Nothing here is captured into state.
 */
import { INSECURE_HTTP_SETTING, resolveConfig } from "../sdk/transport/config";
import { ConfigurationError } from "../sdk/errors";
import type { ProviderConfig } from "./types";

export const CONFIG_NAMESPACE = "account-api";

/**
 * The setting that lets a plain `http://` base URL name a host other than loopback (the token then
 * travels in clear): for a test bed, such as an emulator in another container.
 */
export const INSECURE_HTTP = { key: INSECURE_HTTP_SETTING, env: "ACCOUNT_API_INSECURE_HTTP" } as const;

/**
 * Each setting as a program's user sets it: the stack config key and the environment variable (the
 * native provider's schema lists the same, provider/native/schema.ts).
 */
export const CONFIG_SETTINGS: Readonly<Record<string, { key: string; env: string; secret?: true }>> = {
  baseUrl: { key: "baseUrl", env: "ACCOUNT_API_BASE_URL" },
  token: { key: "apiToken", env: "ACCOUNT_API_TOKEN", secret: true },
  accountId: { key: "accountId", env: "ACCOUNT_API_ACCOUNT_ID" },
  deadlineMs: { key: "deadlineMs", env: "ACCOUNT_API_DEADLINE_MS" },
  maxRetries: { key: "maxRetries", env: "ACCOUNT_API_MAX_RETRIES" },
  insecureHttp: INSECURE_HTTP,
};

/**
 * A configuration error in the words of a Pulumi user: the config key, how to set it, and the
 * environment variable that can stand in for it (never the sdk's option name).
 */
export function inConfigWords(err: ConfigurationError): ConfigurationError {
  const s = err.setting === undefined ? undefined : CONFIG_SETTINGS[err.setting];
  if (!s || err.setting === undefined || !err.message.startsWith(`${err.setting}: `)) return err;
  const rule = err.message
    .slice(`${err.setting}: `.length)
    .replace(/\s*\(option [^)]*\)$/, "")
    // The rule about plain http names the setting that allows it.
    .replace(
      new RegExp(`\\b${INSECURE_HTTP_SETTING}\\b`),
      `\`pulumi config set ${CONFIG_NAMESPACE}:${INSECURE_HTTP.key} true\` (or ${INSECURE_HTTP.env}=1)`,
    );
  const key = `${CONFIG_NAMESPACE}:${s.key}`;
  const how = `pulumi config set${s.secret ? " --secret" : ""} ${key} <value>`;
  return new ConfigurationError(
    `${key}: ${rule} (set it with \`${how}\`, or the environment variable ${s.env})`,
    err.setting,
  );
}

/**
 * What is wrong with this configuration for talking to the API, in a Pulumi user's words, or
 * undefined: checked before any request, so that a preview fails once, at check, naming the key.
 */
export function configProblem(
  config: ProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  try {
    resolveConfig({
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiToken ? { token: config.apiToken } : {}),
      ...(config.accountId ? { accountId: config.accountId } : {}),
      ...(config.insecureHttp !== undefined ? { insecureHttp: config.insecureHttp } : {}),
      env,
    });
    return undefined;
  } catch (err) {
    if (err instanceof ConfigurationError) return inConfigWords(err).message;
    throw err;
  }
}

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
  const insecureHttp = flag(INSECURE_HTTP.key, pick(get(INSECURE_HTTP.key), env[INSECURE_HTTP.env]));
  if (insecureHttp !== undefined) config.insecureHttp = insecureHttp;
  return config;
}

/** `true`/`1` or `false`/`0` (any case), or undefined when unset; anything else names the setting. */
function flag(key: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw inConfigWords(new ConfigurationError(`${key}: must be true or false (1 or 0)`, key));
}

/** A whole number of at least `min`, or undefined when unset; anything else names the setting. */
function whole(key: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < min)
    throw inConfigWords(new ConfigurationError(`${key}: must be a whole number of at least ${min}`, key));
  return n;
}
