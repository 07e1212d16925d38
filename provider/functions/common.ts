/**
 * Imperative functions for programs: they take Pulumi inputs, return outputs, and call the API only
 * on `up` (on preview they resolve to undefined), with a client built from the stack config
 * `account-api:*` or the environment, inside the apply, so nothing is captured.
 */
import * as pulumi from "@pulumi/pulumi";
import { AccountApi } from "../../sdk";
import { CONFIG_NAMESPACE, readProviderConfig } from "../config";

export function programApi(): AccountApi {
  const config = readProviderConfig({ get: (key) => pulumi.runtime.getConfig(key) });
  return new AccountApi({
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.apiToken ? { token: config.apiToken } : {}),
    ...(config.accountId ? { accountId: config.accountId } : {}),
    userAgentSuffix: "pulumi-program",
  });
}

/** Runs `call` once the inputs are known, on `up` only; the client is closed afterwards. */
export function onUp<A, T>(
  args: pulumi.Input<A>,
  call: (api: AccountApi, args: pulumi.Unwrap<A>) => Promise<T>,
): pulumi.Output<T | undefined> {
  return pulumi.output(args).apply(async (resolved) => {
    if (pulumi.runtime.isDryRun()) return undefined;
    const api = programApi();
    try {
      return await call(api, resolved as pulumi.Unwrap<A>);
    } finally {
      await api.close();
    }
  });
}

export { CONFIG_NAMESPACE };
