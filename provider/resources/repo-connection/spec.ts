/**
 * RepoConnection: a repository connection of the build service (spec A), made with the PUT upsert.
 * Its natural key is provider type + provider account id + repository id: changing any of them (or
 * the account) replaces; the display names update in place with the same PUT. The git provider's app
 * must be installed through the dashboard first; that is not an API step.
 */
import { z } from "zod";
import { RepoConnectionBodySchema } from "../../../sdk/schemas/builds";
import { defineResource, output, wire } from "../../core/define";

const W = RepoConnectionBodySchema.shape;

export const RepoConnectionSpec = defineResource({
  kind: "RepoConnection",
  idOutput: "repoConnectionUuid",
  fields: {
    /** Name of the git hosting provider, e.g. "github". */
    providerType: wire("provider_type", W.provider_type, { identity: true }),
    providerAccountId: wire("provider_account_id", W.provider_account_id, { identity: true }),
    providerAccountName: wire("provider_account_name", W.provider_account_name),
    repoId: wire("repo_id", W.repo_id, { identity: true }),
    repoName: wire("repo_name", W.repo_name),
    repoConnectionUuid: output("repo_connection_uuid", z.string()),
    createdOn: output("created_on", z.string().nullable()),
    modifiedOn: output("modified_on", z.string().nullable()),
    /** Set when the service offers no way to read the connection: refresh kept the stored state. */
    uncheckedReason: output(undefined, z.string()),
  },
});
