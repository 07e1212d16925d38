/**
 * BuildTrigger: one trigger of the build service (spec A): how a script is built and deployed from a
 * connected repository. The script is named by its tag (`externalScriptId`) or by its name
 * (`scriptName`, resolved to the tag at check). Identity (account, script, repository connection)
 * replaces, deleting first: the new trigger needs the slot of the old one. Every other field
 * updates in place with a PATCH.
 */
import { z } from "zod";
import { ScriptTagSchema, TriggerCreateBodySchema as Body, UuidSchema } from "../../../sdk/schemas/builds";
import { defineResource, local, output, wire } from "../../core/define";

const W = Body.shape;

export const BuildTriggerSpec = defineResource({
  kind: "BuildTrigger",
  // Defaults by kind (hooks.normalize) and the script's tag from its name (hooks.resolve).
  filledAtCheck: ["kind", "branchIncludes", "deployCommand", "triggerName", "externalScriptId"],
  idOutput: "triggerUuid",
  deleteBeforeReplace: true,
  fields: {
    importId: local(UuidSchema.optional()),
    /** The script's name; resolved to its tag at check. Give this or `externalScriptId`. */
    scriptName: local(z.string().min(1, "must not be empty").optional(), { identity: true }),
    externalScriptId: wire("external_script_id", ScriptTagSchema.optional(), { identity: true }),
    repoConnectionUuid: wire("repo_connection_uuid", W.repo_connection_uuid, { replaceOnChange: true }),
    /** Production or preview; derived from `branchIncludes` when not given, and checked against it. */
    kind: local(z.enum(["production", "preview"], 'must be "production" or "preview"').optional()),
    triggerName: wire("trigger_name", W.trigger_name.optional()),
    buildTokenUuid: wire("build_token_uuid", W.build_token_uuid),
    buildCommand: wire("build_command", W.build_command.default("")),
    deployCommand: wire("deploy_command", W.deploy_command.optional()),
    rootDirectory: wire("root_directory", W.root_directory.default("/")),
    branchIncludes: wire("branch_includes", W.branch_includes.optional()),
    branchExcludes: wire("branch_excludes", W.branch_excludes.unwrap().default([])),
    pathIncludes: wire("path_includes", W.path_includes.unwrap().default(["*"])),
    pathExcludes: wire("path_excludes", W.path_excludes.unwrap().default([])),
    buildCachingEnabled: wire("build_caching_enabled", W.build_caching_enabled.unwrap().default(true)),
    triggerUuid: output("trigger_uuid", z.string()),
    createdOn: output("created_on", z.string().nullable()),
    modifiedOn: output("modified_on", z.string().nullable()),
  },
});
