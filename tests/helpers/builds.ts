/** Build-service set-up shared by tests: a script, a repository connection, the build token, a trigger. */
import { strict as assert } from "node:assert";
import type { AccountApi } from "../../sdk";
import type { Trigger, TriggerCreateBody } from "../../sdk/builds";
import type { EmulatorFixture } from "./emulator";

export interface BuildWorld {
  tag: string;
  repo: string;
  token: string;
}

export async function seedBuildWorld(fx: Pick<EmulatorFixture, "api">, name = "shop"): Promise<BuildWorld> {
  const script = await fx.api.builds.scripts.upload({ scriptName: name });
  const repo = await fx.api.builds.repos.connections.upsert(
    {},
    {
      provider_type: "github",
      provider_account_id: "acme",
      provider_account_name: "Acme",
      repo_id: name,
      repo_name: name,
    },
  );
  const [token] = await fx.api.builds.tokens.list();
  if (!token) throw new Error("the emulator seeded no build token");
  return { tag: script.tag, repo: repo.repo_connection_uuid, token: token.build_token_uuid };
}

/** The create body of a production trigger on `main` for the world's script, with overrides. */
export function productionTriggerBody(
  w: BuildWorld,
  over: Partial<TriggerCreateBody> = {},
): TriggerCreateBody {
  return {
    external_script_id: w.tag,
    repo_connection_uuid: w.repo,
    build_token_uuid: w.token,
    trigger_name: "production",
    build_command: "npm run build",
    deploy_command: "npx wrangler deploy",
    root_directory: "/",
    branch_includes: ["main"],
    ...over,
  };
}

/** A production trigger on `main` for the world's script; returns its uuid. */
export async function productionTrigger(fx: EmulatorFixture, w: BuildWorld): Promise<string> {
  const t = await fx.api.builds.triggers.create(
    {},
    {
      external_script_id: w.tag,
      repo_connection_uuid: w.repo,
      build_token_uuid: w.token,
      trigger_name: "p",
      build_command: "",
      deploy_command: "d",
      root_directory: "/",
      branch_includes: ["main"],
    },
  );
  return t.trigger_uuid;
}

/** A trigger's variables without `created_on`, which each must carry (for tests on the wall clock). */
export async function variablesOf(api: AccountApi, triggerUuid: string): Promise<Record<string, unknown>> {
  const vars = await api.builds.environmentVariables.list({ triggerUuid });
  for (const [k, v] of Object.entries(vars))
    assert.ok(!Number.isNaN(Date.parse(v.created_on ?? "")), `${k} carries created_on`);
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, { value: v.value, is_secret: v.is_secret }]),
  );
}

/**
 * The edit a drift test makes outside the program, as in the dashboard: the script's first trigger
 * gets the command `make all` and the variable MODE `slow`. Returns that trigger.
 */
export async function editTriggerOutOfBand(api: AccountApi, scriptTag: string): Promise<Trigger> {
  const [trigger] = await api.builds.triggers.list({ scriptTag });
  assert.ok(trigger, `script ${scriptTag} has a trigger`);
  await api.builds.triggers.update({ triggerUuid: trigger.trigger_uuid }, { build_command: "make all" });
  await api.builds.environmentVariables.upsert(
    { triggerUuid: trigger.trigger_uuid },
    { MODE: { value: "slow", is_secret: false } },
  );
  return trigger;
}
