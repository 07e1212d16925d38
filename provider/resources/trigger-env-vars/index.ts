/** The TriggerEnvVars class, for programs. */
import * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { isRecord } from "../../core/values";
import { describedResource } from "../../core/class";
import { TriggerEnvVarsSpec } from "./spec";

export { TriggerEnvVarsSpec } from "./spec";
export { planChanges, project, rules, toPatchBody, upgrade, remote, checks, reading, history } from "./hooks";
export { handler } from "./handler";

type Spec = typeof TriggerEnvVarsSpec;
export type TriggerEnvVarsArgs = ArgsOf<Spec>;
export type TriggerEnvVarsInputs = InputsOf<Spec>;
export type TriggerEnvVarsOutputs = StateOf<Spec>;
export type TriggerEnvVarInput = TriggerEnvVarsInputs["variables"][string];

/** One variable with its value made secret when `isSecret` says so; its neighbours stay as they are. */
function entry(e: pulumi.Input<object>): unknown {
  if (isRecord(e) && !pulumi.Output.isInstance(e) && typeof e.isSecret !== "object") {
    return e.isSecret === true ? { ...e, value: pulumi.secret(e.value) } : e;
  }
  return pulumi.output(e).apply((v) => (isSecretEntry(v) ? pulumi.secret(v) : pulumi.output(v)));
}

const isSecretEntry = (v: unknown): boolean => isRecord(v) && v.isSecret === true;

/**
 * Per-leaf secrets: the engine keeps the secret bit per leaf, so a plain variable stays plaintext in
 * state. A map given as one Output cannot be split before it resolves: it is then secret as a whole
 * if any variable is.
 */
function variablesArg(variables: TriggerEnvVarsArgs["variables"]): unknown {
  if (variables === undefined) return undefined;
  if (isRecord(variables) && !pulumi.Output.isInstance(variables))
    return Object.fromEntries(
      Object.entries(variables).map(([k, e]: [string, pulumi.Input<object>]) => [k, entry(e)]),
    );
  const whole: pulumi.Input<object> = variables;
  return pulumi
    .output(whole)
    .apply((m) =>
      isRecord(m) && Object.values(m).some(isSecretEntry) ? pulumi.secret(m) : pulumi.output(m),
    );
}

export const TriggerEnvVars = describedResource(TriggerEnvVarsSpec, {
  prepare: (args) => ({ ...args, variables: variablesArg(args.variables) }),
});
export type TriggerEnvVars = InstanceType<typeof TriggerEnvVars>;
