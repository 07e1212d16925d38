/**
 * TriggerEnvVars: build-time variables of one trigger (spec A), as a map name → {value, isSecret}.
 * It owns only its keys: variables set by hand or by another TriggerEnvVars on the same trigger are
 * left alone, and a key it stops managing is deleted. Identity: the account and the trigger.
 */
import { z } from "zod";
import { EnvVarNameSchema, UuidSchema } from "../../../sdk/schemas/builds";
import { defineResource, local, output } from "../../core/define";

export const EnvVarSchema = z.strictObject({
  value: z.string(),
  /** Masked in build logs and never returned by the API; a Pulumi secret in state. Default false. */
  isSecret: z.boolean().default(false),
});

export const TriggerEnvVarsSpec = defineResource({
  kind: "TriggerEnvVars",
  fields: {
    /** Must equal triggerUuid: the variables of that trigger are adopted. */
    importId: local(UuidSchema.optional()),
    /** The trigger whose build-time variables these are. */
    triggerUuid: local(UuidSchema, { identity: true }),
    /** Name → `{ value, isSecret }`; a secret one is masked in build logs and kept secret in state. */
    variables: local(z.record(EnvVarNameSchema, EnvVarSchema).default({})),
    /** Every key this resource manages, sorted. */
    keys: output(undefined, z.array(z.string())),
  },
});
