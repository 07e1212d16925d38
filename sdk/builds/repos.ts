/** Repositories the build service reads (`builds/repos`): their connections and a trigger's prefill. */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { ConfigAutofillSchema, type ConfigAutofill } from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type RepoIds } from "./paths";
import { RepoConnections } from "./repo-connections";

export interface ConfigAutofillParams {
  branch?: string;
  root_directory?: string;
}

export class Repos {
  readonly connections: RepoConnections;

  constructor(readonly client: ApiClient) {
    this.connections = new RepoConnections(client);
  }

  /**
   * What the service reads from a connected repository to prefill a trigger
   * (`builds/repos/{provider_type}/{provider_account_id}/{repo_id}/config_autofill`): the config
   * file, the Worker's name, the package manager, the package scripts.
   */
  async configAutofill(
    ids: RepoIds,
    params: ConfigAutofillParams = {},
    options: CallOptions = {},
  ): Promise<ConfigAutofill> {
    const p = validate(
      P.autofill,
      { ...ids, branch: params.branch, rootDirectory: params.root_directory },
      "builds.getConfigAutofill",
    );
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/repos/${p.providerType}/${p.providerAccountId}/${p.repoId}/config_autofill`,
      query: { branch: p.branch, root_directory: p.rootDirectory },
      schema: ConfigAutofillSchema,
      ...options,
    });
  }
}
