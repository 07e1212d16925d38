/** A client configuration error in the command line's words: the flag and the variable that set it. */
import { ConfigurationError } from "../sdk";
import { INSECURE_HTTP_SETTING } from "../sdk/transport/config";

/** How a user of the command line sets each client setting (the token is never a flag). */
const WHERE: Readonly<Record<string, string>> = {
  baseUrl: "--base-url or ACCOUNT_API_BASE_URL",
  token: "ACCOUNT_API_TOKEN (the token is never a flag, so it shows in no process listing)",
  accountId: "--account-id or ACCOUNT_API_ACCOUNT_ID",
  [INSECURE_HTTP_SETTING]: "--insecure-http or ACCOUNT_API_INSECURE_HTTP",
};

/** The same error, its message naming the flag and the environment variable instead of the sdk option. */
export function inCliWords(err: ConfigurationError): ConfigurationError {
  const where = err.setting === undefined ? undefined : WHERE[err.setting];
  if (!where || err.setting === undefined) return err;
  const rule = err.message
    .slice(`${err.setting}: `.length)
    .replace(/\s*\(option [^)]*\)$/, "")
    // The rule about plain http names the setting that allows it.
    .replace(
      new RegExp(`\\b${INSECURE_HTTP_SETTING}\\b`),
      "--insecure-http (or ACCOUNT_API_INSECURE_HTTP=1)",
    );
  return new ConfigurationError(`${where}: ${rule}`, err.setting);
}
