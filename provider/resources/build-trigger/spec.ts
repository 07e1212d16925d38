/**
 * BuildTrigger: one trigger of the build service (spec A): how a script is built and deployed from a
 * connected repository. The script is named by its tag (`externalScriptId`) or by its name
 * (`scriptName`, resolved to the tag at check). Identity (account, script, repository connection)
 * replaces, deleting first: the new trigger needs the slot of the old one. Every other field
 * updates in place with a PATCH.
 */
import { z } from "zod";
import { TriggerCreateBodySchema, UuidSchema } from "../../../sdk/schemas/builds";
import { defineResource, local, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

/**
 * The create body as a program gives it: the sdk's (its pattern lists default as the sdk fills them),
 * with the fields check fills (checks.normalize, checks.resolve) optional.
 */
const PROGRAM_BODY = TriggerCreateBodySchema.partial({
  external_script_id: true,
  trigger_name: true,
  deploy_command: true,
  branch_includes: true,
}).shape;

export const BuildTriggerSpec = defineResource({
  kind: "BuildTrigger",
  // Defaults by kind (checks.normalize) and the script's tag from its name (checks.resolve).
  filledAtCheck: ["kind", "branchIncludes", "deployCommand", "triggerName", "externalScriptId"],
  idOutput: "triggerUuid",
  deleteBeforeReplace: true,
  fields: {
    importId: local(UuidSchema.optional()),
    /** The script's name; resolved to its tag at check. Give this or `externalScriptId`. */
    scriptName: local(z.string().min(1, "must not be empty").optional(), { identity: true }),
    /** Production or preview; derived from `branchIncludes` when not given, and checked against it. */
    kind: local(z.enum(["production", "preview"], 'must be "production" or "preview"').optional()),
    // Every field of the create body; only the exceptions are written here.
    ...contractInputs(PROGRAM_BODY, {
      external_script_id: { flags: { identity: true } },
      repo_connection_uuid: { flags: { replaceOnChange: true } },
      // The provider's defaults (docs/areas/builds.md): the contract has none for the first two,
      // and leaves caching off.
      build_command: { default: "" },
      root_directory: { default: "/" },
      build_caching_enabled: { default: true },
      // Branch patterns are data: sent as given, checked by the body's own rule.
      branch_includes: { asGiven: true },
    }),
    triggerUuid: output("trigger_uuid", z.string()),
    createdOn: output("created_on", z.string().nullable()),
    modifiedOn: output("modified_on", z.string().nullable()),
  },
});
