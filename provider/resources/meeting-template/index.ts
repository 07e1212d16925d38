/** The MeetingTemplate class, for programs. */
import * as pulumi from "@pulumi/pulumi";
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { isRecord } from "../../core/values";
import { CREDENTIAL_FIELDS, MeetingTemplateSpec } from "./spec";

export { MeetingTemplateSpec, CREDENTIAL_FIELDS } from "./spec";
// The pure functions and the capabilities, for table tests; the types below are the resource's own.
export * from "./hooks";
export { handler } from "./handler";

type Spec = typeof MeetingTemplateSpec;
export type MeetingTemplateArgs = ArgsOf<Spec>;
export type MeetingTemplateInputs = InputsOf<Spec>;
export type MeetingTemplateOutputs = StateOf<Spec>;

/** A value given as it is: neither an Output nor a promise of one. */
const isPlain = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && !pulumi.Output.isInstance(v) && typeof v.then !== "function";

const hasCredential = (sc: unknown): boolean =>
  isRecord(sc) && CREDENTIAL_FIELDS.some((f) => sc[f] !== undefined);

/** A value that resolves later: secret as a whole once it carries a credential (it cannot be split before). */
function secretIfCredentials(v: object, storageOf: (resolved: unknown) => unknown): pulumi.Output<unknown> {
  return pulumi.output(v).apply((x) => (hasCredential(storageOf(x)) ? pulumi.secret(x) : pulumi.output(x)));
}

/**
 * Per-leaf secrets: each credential of a storage config given as it is becomes a secret and its
 * neighbours (bucket, region, …) stay readable in state.
 */
export function recordingConfigArg(rc: unknown): unknown {
  if (rc === undefined) return undefined;
  if (!isPlain(rc))
    return isRecord(rc) ? secretIfCredentials(rc, (x) => (isRecord(x) ? x.storageConfig : undefined)) : rc;
  const sc = rc.storageConfig;
  if (sc === undefined) return rc;
  if (!isPlain(sc)) return isRecord(sc) ? { ...rc, storageConfig: secretIfCredentials(sc, (x) => x) } : rc;
  const storage = Object.fromEntries(
    Object.entries(sc).map(([k, v]) => [
      k,
      v !== undefined && CREDENTIAL_FIELDS.some((f) => f === k) ? pulumi.secret(v) : v,
    ]),
  );
  return { ...rc, storageConfig: storage };
}

export const MeetingTemplate = describedResource(MeetingTemplateSpec, {
  prepare: (args) => ({ ...args, recordingConfig: recordingConfigArg(args.recordingConfig) }),
});
export type MeetingTemplate = InstanceType<typeof MeetingTemplate>;
