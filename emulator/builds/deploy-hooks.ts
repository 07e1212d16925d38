/**
 * Deploy hooks of one account: named URLs that start a build of one branch of a script. A script's
 * hooks have distinct names (a second one of a name is 409). Firing a hook is not an account API
 * operation and is not modelled (docs/areas/builds.md).
 */
import { randomUUID } from "node:crypto";
import type { DeployHookBody } from "../../sdk/schemas/builds";
import { buildErrors } from "./errors";
import type { DeployHookRecord, ScriptRecord } from "./model";

export class DeployHooks {
  constructor(
    private readonly hooks: Record<string, DeployHookRecord>,
    private readonly now: number,
    private readonly scriptByTag: (tag: string) => ScriptRecord,
  ) {}

  /** Oldest first. An unknown script (or a name where the tag belongs) is 404. */
  list(tag: string): DeployHookRecord[] {
    const script = this.scriptByTag(tag);
    return Object.values(this.hooks)
      .filter((h) => h.external_script_id === script.tag)
      .sort((a, b) => a.created_on - b.created_on || a.deploy_hook_name.localeCompare(b.deploy_hook_name));
  }

  get(tag: string, uuid: string): DeployHookRecord {
    const script = this.scriptByTag(tag);
    const hook = this.hooks[uuid.toLowerCase()];
    if (!hook || hook.external_script_id !== script.tag) throw buildErrors.notFound();
    return hook;
  }

  create(tag: string, body: DeployHookBody): DeployHookRecord {
    const script = this.scriptByTag(tag);
    this.#checkName(script.tag, body.deploy_hook_name);
    const hook: DeployHookRecord = {
      deploy_hook_uuid: randomUUID(),
      deploy_hook_name: body.deploy_hook_name,
      branch: body.branch,
      external_script_id: script.tag,
      created_on: this.now,
      modified_on: this.now,
    };
    this.hooks[hook.deploy_hook_uuid] = hook;
    return hook;
  }

  /** PUT: both fields are replaced. */
  update(tag: string, uuid: string, body: DeployHookBody): DeployHookRecord {
    const hook = this.get(tag, uuid);
    this.#checkName(hook.external_script_id, body.deploy_hook_name, hook.deploy_hook_uuid);
    hook.deploy_hook_name = body.deploy_hook_name;
    hook.branch = body.branch;
    hook.modified_on = this.now;
    return hook;
  }

  /** Answers the hook as it was. */
  delete(tag: string, uuid: string): DeployHookRecord {
    const hook = this.get(tag, uuid);
    delete this.hooks[hook.deploy_hook_uuid];
    return hook;
  }

  #checkName(scriptTag: string, name: string, except?: string): void {
    const clash = Object.values(this.hooks).find(
      (h) =>
        h.external_script_id === scriptTag && h.deploy_hook_name === name && h.deploy_hook_uuid !== except,
    );
    if (clash)
      throw buildErrors.conflict(
        `A deploy hook named ${JSON.stringify(name)} already exists for this script (${clash.deploy_hook_uuid})`,
      );
  }
}
