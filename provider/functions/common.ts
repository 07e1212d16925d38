/**
 * Imperative functions for programs: they take Pulumi inputs, return outputs, and call the API only
 * on `up` (on preview their outputs are unknown, as a resource's outputs are before it is made), with
 * a client built from the stack config `account-api:*` or the environment, inside the apply, so
 * nothing is captured.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AccountApi } from "../../sdk/account-api";
import { ConfigurationError } from "../../sdk/errors";
import { CONFIG_NAMESPACE, inConfigWords, readProviderConfig } from "../config";
// The log goes through the engine connection, which takes the program's copy's messages only.
import { programSdk } from "../core/program-sdk";

export function programApi(): AccountApi {
  try {
    const config = readProviderConfig({ get: (key) => programSdk.runtime.getConfig(key) });
    return new AccountApi({
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiToken ? { token: config.apiToken } : {}),
      ...(config.accountId ? { accountId: config.accountId } : {}),
      ...(config.insecureHttp !== undefined ? { insecureHttp: config.insecureHttp } : {}),
      userAgentSuffix: "pulumi-program",
    });
  } catch (err) {
    throw err instanceof ConfigurationError ? inConfigWords(err) : err;
  }
}

/** A function's arguments: each field of its parameters may be a Pulumi input. */
export type FunctionArgs<P> = { [K in keyof P]: pulumi.Input<P[K]> };

/**
 * A function that changes something remote (a build, a send, a job): it runs on every `up` that
 * evaluates it, so each run says so and names the resource that runs only when something changed.
 */
export interface SideEffect {
  name: string;
  /** The run resource that does the same only when its inputs or `triggers` change. */
  instead: string;
}

/**
 * The value an `apply` answers on preview: the SDK's own marker of a value not known yet, which makes
 * the output unknown. The preview then shows `output<…>` for it, as for a resource's outputs before
 * the resource exists; a known `undefined` would show the stack output as removed, with the engine's
 * "Undefined value … will not show as a stack output" warning.
 */
function notKnownUntilUp<T>(): T {
  // The marker is no T; the output that carries it never hands it to a callback (apply skips unknowns).
  const marker: unknown = programSdk.unknown;
  return marker as T;
}

/** The inputs once known. Resolving them (field by field, or as a whole) gives P; Unwrap's deep type cannot say so. */
function resolvedArgs<P>(args: FunctionArgs<P> | pulumi.Input<P>): pulumi.Output<P> {
  return programSdk.output(args) as pulumi.Output<P>;
}

/** Runs `call` with a client of its own, closed afterwards. */
async function withApi<P, T>(params: P, call: (api: AccountApi, params: P) => Promise<T>): Promise<T> {
  const api = programApi();
  try {
    return await call(api, params);
  } finally {
    await api.close();
  }
}

/** Runs `call` once the inputs are known, on `up` only (unknown on preview); the client is closed afterwards. */
export function onUp<P, T>(
  args: FunctionArgs<P> | pulumi.Input<P>,
  call: (api: AccountApi, params: P) => Promise<T>,
  sideEffect?: SideEffect,
): pulumi.Output<T | undefined> {
  return resolvedArgs(args).apply(async (resolved): Promise<T> => {
    if (programSdk.runtime.isDryRun()) return notKnownUntilUp<T>();
    if (sideEffect)
      void programSdk.log.warn(
        `${sideEffect.name} runs on every \`pulumi up\`, this one included; \`new ${sideEffect.instead}(name, { …, triggers })\` runs only when its inputs or triggers change`,
      );
    return withApi(resolved, call);
  });
}

/**
 * Runs `call` once the inputs are known, on preview as on `up`: for a read whose answer a program
 * decides on before anything is made (the registrar's extensions). Unknown inputs keep it unknown.
 */
export function onPreviewAndUp<P, T>(
  args: FunctionArgs<P> | pulumi.Input<P>,
  call: (api: AccountApi, params: P) => Promise<T>,
): pulumi.Output<T> {
  return resolvedArgs(args).apply((resolved) => withApi(resolved, call));
}

export { CONFIG_NAMESPACE };
