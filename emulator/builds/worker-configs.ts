/**
 * Worker build configurations of one account: a script's link to a repository connection, one per
 * script. The public contract publishes paths and methods only, so fields beyond the script and the
 * connection are kept as sent and answered back (docs/assumptions.md, Build service).
 */
import type { WorkerBuildConfigCreateBody, WorkerBuildConfigUpdateBody } from "../../sdk/schemas/builds";
import { buildErrors } from "./errors";
import type { RepoConnectionRecord, ScriptRecord, WorkerBuildConfigRecord } from "./model";

export class WorkerConfigs {
  constructor(
    private readonly configs: Record<string, WorkerBuildConfigRecord>,
    private readonly now: number,
    private readonly scriptByTag: (tag: string) => ScriptRecord,
    private readonly repoConnection: (uuid: string) => RepoConnectionRecord | null,
  ) {}

  /** 404 for an unknown script and for a script without a configuration. */
  get(tag: string): WorkerBuildConfigRecord {
    const c = this.configs[this.scriptByTag(tag).tag];
    if (!c) throw buildErrors.notFound();
    return c;
  }

  /** One per script: a second is 409. */
  create(body: WorkerBuildConfigCreateBody): WorkerBuildConfigRecord {
    const script = this.scriptByTag(body.external_script_id);
    const { external_script_id: _tag, repo_connection_uuid, ...extra } = body;
    const repo = this.#repo(repo_connection_uuid);
    const existing = this.configs[script.tag];
    if (existing)
      throw buildErrors.conflict(
        "This script already has a build configuration; change it with PATCH or delete it first",
      );
    const c: WorkerBuildConfigRecord = {
      external_script_id: script.tag,
      repo_connection_uuid: repo.repo_connection_uuid,
      extra: structuredClone(extra),
      created_on: this.now,
      modified_on: this.now,
    };
    this.configs[script.tag] = c;
    return c;
  }

  /** Fields given replace; the others stay. */
  update(tag: string, body: WorkerBuildConfigUpdateBody): WorkerBuildConfigRecord {
    const c = this.get(tag);
    const { repo_connection_uuid, ...extra } = body;
    if (repo_connection_uuid !== undefined)
      c.repo_connection_uuid = this.#repo(repo_connection_uuid).repo_connection_uuid;
    Object.assign(c.extra, structuredClone(extra));
    c.modified_on = this.now;
    return c;
  }

  /** Answers the configuration as it was. The script's triggers stay (they are deleted on their own). */
  delete(tag: string): WorkerBuildConfigRecord {
    const c = this.get(tag);
    delete this.configs[c.external_script_id];
    return c;
  }

  /** Whether a configuration builds from this connection (it cannot be deleted then). */
  usesConnection(uuid: string): WorkerBuildConfigRecord | undefined {
    return Object.values(this.configs).find((c) => c.repo_connection_uuid === uuid);
  }

  #repo(uuid: string): RepoConnectionRecord {
    const repo = this.repoConnection(uuid);
    if (!repo) throw buildErrors.missingReference("repo_connection_uuid", "repository connection");
    return repo;
  }
}
