/**
 * What every resource class shares: the kind's stored provider (a `require` of its provider object),
 * output placeholders, and the options that keep secrets secret in state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { programSdk } from "./core/program-sdk";
import { storedProvider } from "./core/stored-provider";
import { URN_INPUT, urnOf } from "./core/urn-key";
import type { ProviderKind } from "./types";

/** Type tokens read `pulumi-nodejs:dynamic/account-api:<Kind>`. */
export const TYPE_MODULE = "account-api";

/** Inputs every resource accepts. */
export interface CommonArgs {
  /** The account to act on; defaults to `account-api:accountId` / ACCOUNT_API_ACCOUNT_ID. Changing it replaces. */
  accountId?: pulumi.Input<string>;
  /**
   * Adopt an existing object with this id on create instead of making a new one (the engine's own
   * import path fails for dynamic resources: pulumi#16175). Ignored after creation.
   */
  importId?: pulumi.Input<string>;
}

/**
 * The engine's props for `args`: every output declared (as undefined) so the class exposes it, and
 * `outputs` listed for that.
 */
export function registerArgs(args: object, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { ...args };
  for (const name of outputs) if (!(name in props)) props[name] = undefined;
  return props;
}

export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  if (secretOutputs.length === 0) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs] };
}

/**
 * Base class: a dynamic resource, registered as `pulumi.dynamic.Resource` registers one, with the
 * kind's stored provider written by core/stored-provider.ts rather than by the SDK's serializer.
 */
export abstract class AccountApiResource extends programSdk.CustomResource {
  constructor(
    kind: ProviderKind,
    name: string,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions | undefined,
    secretOutputs: readonly string[] = [],
  ) {
    // The SDK records a stack trace on every promise it makes for a resource (four per declared
    // property), for a leak report that only PULUMI_DEBUG_PROMISE_LEAKS prints; in a TypeScript
    // program each trace goes through source-map-support, frame by frame, and that was most of a
    // program's time to declare its resources. The resource's own source position is unaffected:
    // the SDK lifts the limit itself while it takes it.
    const limit = Error.stackTraceLimit;
    if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
    try {
      props.__provider = storedProvider(kind);
      const type = `pulumi-nodejs:dynamic/${TYPE_MODULE}:${kind}`;
      // The dynamic provider gets no URN: check derives a kind's marker from the one computed here.
      props[URN_INPUT] = urnOf(programSdk.getStack(), programSdk.getProject(), type, name, opts?.parent);
      super(type, name, props, withSecretOutputs(opts, secretOutputs));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
