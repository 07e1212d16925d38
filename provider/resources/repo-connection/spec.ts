/**
 * RepoConnection: a repository connection of the build service (spec A), made with the PUT upsert.
 * Its natural key is provider type + provider account id + repository id: changing any of them (or
 * the account) replaces; the display names update in place with the same PUT. The git provider's app
 * must be installed through the dashboard first; that is not an API step.
 */
import { z } from "zod";
import { RepoConnectionBodySchema } from "../../../sdk/schemas/builds";
import { defineResource, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

export const RepoConnectionSpec = defineResource({
  kind: "RepoConnection",
  idOutput: "repoConnectionUuid",
  fields: {
    // Every field of the upsert body; only the exceptions are written here.
    ...contractInputs(RepoConnectionBodySchema.shape, {
      /** Name of the git hosting provider, e.g. "github". */
      provider_type: { flags: { identity: true } },
      provider_account_id: { flags: { identity: true } },
      repo_id: { flags: { identity: true } },
    }),
    repoConnectionUuid: output("repo_connection_uuid", z.string()),
    createdOn: output("created_on", z.string().nullable()),
    modifiedOn: output("modified_on", z.string().nullable()),
    /** Set when the service offers no way to read the connection: refresh kept the stored state. */
    uncheckedReason: output(undefined, z.string()),
  },
});
