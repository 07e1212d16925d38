/**
 * The plain script: the same graph's API calls, made directly with the installed package's sdk at
 * the same parallelism as the engine, with none of the engine's work (no state, no diff, no plugin).
 * Up creates, refresh reads (the way the provider reads: listings where there is no get), destroy
 * removes in reverse dependency order.
 */
import { join } from "node:path";
import type * as Sdk from "../sdk";
import type { Installed } from "./install";
import { UNIT, type Shape } from "./programs";
import { runGraph, seconds } from "./stats";
import type { World } from "./world";

type Phase = "up" | "refresh" | "destroy";
type Task = { after: string[]; run: () => Promise<void> };

interface Made {
  repo: string[];
  trigger: string[];
  meeting: string[];
}

const VARS = (u: number) => ({
  MODE: { value: "fast", is_secret: false },
  UNIT: { value: String(u), is_secret: false },
});

function tasks(
  api: Sdk.AccountApi,
  w: World,
  shape: Shape,
  count: number,
  phase: Phase,
  made: Made,
): Map<string, Task> {
  const b = api.builds;
  const units = shape === "repos" ? count : count / UNIT;
  const all = new Map<string, Task>();
  const add = (key: string, after: string[], run: () => Promise<void>): void =>
    void all.set(key, { after, run });
  // Destroy runs the graph backwards: a dependent goes before what it depends on.
  const dep = (on: string, of: string): [string[], string[]] =>
    phase === "destroy" ? [[of], []] : [[], [on]];
  for (let u = 0; u < units; u++) {
    const [repoAfter, triggerAfterRepo] = dep(`repo-${u}`, `trigger-${u}`);
    const repo = {
      provider_type: "github",
      provider_account_id: "bench",
      provider_account_name: "Bench",
      repo_id: `r${u}`,
      repo_name: `repo-${u}`,
    };
    add(
      `repo-${u}`,
      shape === "repos" ? [] : repoAfter,
      {
        up: async () => void (made.repo[u] = (await b.upsertRepoConnection(repo)).repo_connection_uuid),
        refresh: async () => void (await b.listRepoConnections()),
        destroy: async () => b.deleteRepoConnection(made.repo[u]!),
      }[phase],
    );
    if (shape === "repos") continue;
    const tag = w.scriptTags[u]!;
    const [triggerAfterVars, varsAfter] = dep(`trigger-${u}`, `vars-${u}`);
    add(
      `trigger-${u}`,
      [...triggerAfterRepo, ...triggerAfterVars],
      {
        up: async () => {
          const t = await b.createTrigger({
            external_script_id: tag,
            repo_connection_uuid: made.repo[u]!,
            build_token_uuid: w.buildToken,
            trigger_name: "production",
            branch_includes: ["main"],
            build_command: "npm run build",
            deploy_command: "npx wrangler deploy",
            root_directory: "/",
          });
          made.trigger[u] = t.trigger_uuid;
        },
        refresh: async () => void (await b.listTriggers(tag)),
        destroy: async () => b.deleteTrigger(made.trigger[u]!),
      }[phase],
    );
    add(
      `vars-${u}`,
      varsAfter,
      {
        up: async () => void (await b.patchEnvironmentVariables(made.trigger[u]!, { variables: VARS(u) })),
        refresh: async () => void (await b.getEnvironmentVariables(made.trigger[u]!)),
        destroy: async () => {
          for (const key of Object.keys(VARS(u))) await b.deleteEnvironmentVariable(made.trigger[u]!, key);
        },
      }[phase],
    );
    const id = `bench-${u}`;
    add(
      `search-${u}`,
      [],
      {
        up: async () =>
          void (await api.search.createInstance({
            id,
            type: "web-crawler",
            source: "docs.example.com",
            sync_interval: 3600,
          })),
        refresh: async () => void (await api.search.getInstance({ id })),
        destroy: async () => void (await api.search.deleteInstance({ id })),
      }[phase],
    );
    add(
      `meeting-${u}`,
      [],
      {
        up: async () =>
          void (made.meeting[u] = (
            await api.meetings.createMeeting({ appId: w.appId, title: `Standup ${u}`, persist_chat: true })
          ).id),
        refresh: async () =>
          void (await api.meetings.getMeeting({ appId: w.appId, meetingId: made.meeting[u]! })),
        destroy: async () =>
          void (await api.meetings.updateMeeting({
            appId: w.appId,
            meetingId: made.meeting[u]!,
            status: "INACTIVE",
          })),
      }[phase],
    );
  }
  return all;
}

/** Up, refresh and destroy of the graph: seconds, and requests (from `served`), for each. */
export async function plainScript(
  installed: Installed,
  w: World,
  shape: Shape,
  count: number,
  parallel: number,
  served: () => number,
): Promise<{ seconds: Record<Phase, number>; requests: Record<Phase, number> }> {
  const sdk = require(join(installed.pkg, "dist", "sdk")) as typeof Sdk;
  const api = new sdk.AccountApi({ baseUrl: w.url, token: w.token, accountId: w.accountId, env: {} });
  const made: Made = { repo: [], trigger: [], meeting: [] };
  const out = { seconds: { up: 0, refresh: 0, destroy: 0 }, requests: { up: 0, refresh: 0, destroy: 0 } };
  try {
    for (const phase of ["up", "refresh", "destroy"] as const) {
      const before = served();
      out.seconds[phase] = await seconds(() => runGraph(tasks(api, w, shape, count, phase, made), parallel));
      out.requests[phase] = served() - before;
    }
  } finally {
    await api.close();
  }
  return out;
}
