/** Environment variables of a trigger (`builds/triggers/{trigger_uuid}/environment_variables`). */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  EnvVarsPatchBodySchema,
  EnvVarsSchema,
  type EnvVars,
  type EnvVarsPatchBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type EnvironmentVariableIds, type TriggerIds } from "./paths";

export class EnvironmentVariables {
  constructor(readonly client: ApiClient) {}

  /** The trigger's variables; a secret's `value` is null. */
  async list(ids: TriggerIds, options: CallOptions = {}): Promise<EnvVars> {
    const p = validate(P.trigger, ids, "builds.getEnvironmentVariables");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}/environment_variables`,
      schema: EnvVarsSchema,
      ...options,
    });
  }

  /**
   * PATCH: sets (adds or replaces) the given variables, name to `{value, is_secret}`; others stay.
   * Returns the whole map.
   */
  async upsert(ids: TriggerIds, params: EnvVarsPatchBody, options: CallOptions = {}): Promise<EnvVars> {
    const p = validate(
      P.trigger,
      { accountId: ids.accountId, triggerUuid: ids.triggerUuid },
      "builds.patchEnvironmentVariables",
    );
    const body = validate(EnvVarsPatchBodySchema, params, "builds.patchEnvironmentVariables: variables");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}/environment_variables`,
      body,
      schema: EnvVarsSchema,
      ...options,
    });
  }

  async delete(ids: EnvironmentVariableIds, options: CallOptions = {}): Promise<void> {
    const { accountId, triggerUuid, environmentVariableKey: key } = ids;
    const p = validate(P.envKey, { accountId, triggerUuid, key }, "builds.deleteEnvironmentVariable");
    const a = this.client.account(p.accountId);
    await value(this.client, "build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/environment_variables/${key}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
