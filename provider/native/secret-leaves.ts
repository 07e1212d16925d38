/**
 * Secrets inside an input, leaf by leaf, that no field flag can say: a trigger's variable whose
 * `isSecret` is true, a meeting's storage credentials. The TypeScript classes wrap them as the
 * program registers them (`prepare` in the resources' index.ts); a native program (YAML, Python, Go)
 * gives plain values, so the provider wraps the same leaves in what check, create, read and update
 * answer. Their neighbours stay readable in state.
 */
import { isRecord } from "../core/values";
import type * as MeetingTemplateSpec from "../resources/meeting-template/spec";
import type { ProviderKind } from "../types";
import { secret } from "./secrets";

type Leaves = (values: Record<string, unknown>) => Record<string, unknown>;

/** `value` of each variable whose `isSecret` is true. */
const triggerVariables: Leaves = (values) => {
  const vars = values.variables;
  if (!isRecord(vars)) return values;
  const wrapped = Object.fromEntries(
    Object.entries(vars).map(([k, e]) => [
      k,
      isRecord(e) && e.isSecret === true ? { ...e, value: secret(e.value) } : e,
    ]),
  );
  return { ...values, variables: wrapped };
};

/** Each credential of `recordingConfig.storageConfig`. */
const storageCredentials: Leaves = (values) => {
  const rc = values.recordingConfig;
  const sc = isRecord(rc) ? rc.storageConfig : undefined;
  if (!isRecord(rc) || !isRecord(sc)) return values;
  // Loaded here, not with the plugin: the kind's handler has loaded its description already.
  const { CREDENTIAL_FIELDS }: typeof MeetingTemplateSpec = require("../resources/meeting-template/spec");
  const storage = Object.fromEntries(
    Object.entries(sc).map(([k, v]) => [k, CREDENTIAL_FIELDS.some((f) => f === k) ? secret(v) : v]),
  );
  return { ...values, recordingConfig: { ...rc, storageConfig: storage } };
};

const LEAVES: Partial<Record<ProviderKind, Leaves>> = {
  TriggerEnvVars: triggerVariables,
  MeetingTemplate: storageCredentials,
};

/** The values with the kind's secret leaves wrapped. */
export function withSecretLeaves(
  kind: ProviderKind,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return LEAVES[kind]?.(values) ?? values;
}
