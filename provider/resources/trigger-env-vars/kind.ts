/** What the kinds table knows of TriggerEnvVars (core/room.ts). */
import { orGone } from "../../../sdk/core";
import type { KindRoom, SecretLeaves, UnreadSecret } from "../../core/room";
import { isRecord } from "../../core/values";
import { secret } from "../../native/secrets";
import { TriggerEnvVarsSpec } from "./spec";

/** `value` of each variable whose `isSecret` is true: no field flag can say it. */
const secretVariables: SecretLeaves = (values) => {
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

export const room: KindRoom = {
  spec: TriggerEnvVarsSpec,
  handler: () => require("./handler").handler,
  // Read never shows the trigger a variable set belongs to.
  importForm: { form: "<triggerUuid>", parts: ["triggerUuid"], id: "whole" },
  secretLeaves: secretVariables,
  lister: {
    in: "trigger",
    list: async (script, t, walk) => {
      const uuid = t.trigger_uuid;
      const variables =
        (await orGone(
          walk.api.builds.environmentVariables.list({ accountId: walk.accountId, triggerUuid: uuid }),
        )) ?? {};
      if (Object.keys(variables).length === 0) return [];
      const label = `variables of ${script.id}/${t.trigger_name ?? uuid}`;
      const scope = { scriptName: script.id, triggerUuid: uuid };
      return [walk.object("TriggerEnvVars", { id: uuid, resourceId: uuid }, label, scope, { variables })];
    },
  },
  adoption: {
    // Variables are read for the keys the stored state names (a resource owns only its keys):
    // adoption names every key the trigger holds.
    seedState: async (object, ctx) => {
      const live = await ctx.api.builds.environmentVariables.list({ triggerUuid: object.resourceId });
      const variables = Object.fromEntries(
        Object.entries(live).map(([k, v]) => [k, { value: v.value ?? "", isSecret: v.is_secret }]),
      );
      return { triggerUuid: object.resourceId, variables };
    },
    // The API never returns a secret variable's value.
    unreadSecrets: (object, inputs) => {
      if (!isRecord(inputs.variables)) return [];
      const found: UnreadSecret[] = [];
      for (const [key, v] of Object.entries(inputs.variables))
        if (isRecord(v) && v.isSecret === true)
          found.push({
            path: ["variables", key, "value"],
            name: key,
            about: `the secret build variable ${key} of trigger ${object.resourceId} (the API never returns it)`,
          });
      return found;
    },
    // A read by id alone names no key: the engine's import could not match the program.
    onCreate: true,
  },
};
