/**
 * The plain script: the same graph's API calls, made directly with the installed package's sdk at
 * the same parallelism as the engine, with none of the engine's work (no state, no diff, no plugin).
 * Up creates, refresh reads (the way the API allows: a listing where there is no get), destroy
 * removes in reverse dependency order (or, where the API removes nothing, does what the resource's
 * delete does: turns the setting off, closes the meeting; a domain stays registered).
 */
import { join } from "node:path";
import type { ResourceKind } from "../provider";
import type * as Sdk from "../sdk";
import type { Installed } from "./install";
import { kindName, UNIT, type Shape } from "./programs";
import { runGraph, seconds } from "./stats";
import type { World } from "./world";

type Phase = "up" | "refresh" | "destroy";
type Task = { after: string[]; run: () => Promise<void> };
type Calls = Record<Phase, () => Promise<void>>;

/** What up made that later phases name by its server-given id. */
interface Made {
  repo: string[];
  trigger: string[];
  meeting: string[];
  token: string[];
  sendingDomain: string[];
}

/** Where resource `u` finds what it depends on: the mix's own objects, or the world's. */
interface Deps {
  repo(u: number): string;
  trigger(u: number): string;
}

interface Ctx {
  api: Sdk.AccountApi;
  sdk: typeof Sdk;
  w: World;
  made: Made;
  deps: Deps;
}

const VARS = (u: number) => ({
  MODE: { value: "fast", is_secret: false },
  UNIT: { value: String(u), is_secret: false },
});

/** The most a bench registration may cost (its `maxCost`), checked the way the resource checks it. */
const MAX_COST = { amount: "25.00", currency: "USD" };

/** A rule of the entrypoint as read, in the form a PUT takes it back. */
function ruleAsSent(r: Sdk.content.ConfigRule): Sdk.content.ConfigRuleRequest {
  return {
    id: r.id,
    ...(r.ref === undefined ? {} : { ref: r.ref }),
    expression: r.expression,
    action: "set_config",
    action_parameters: r.action_parameters ?? {},
    ...(r.description === undefined ? {} : { description: r.description }),
    ...(r.enabled === undefined ? {} : { enabled: r.enabled }),
  };
}

/** The API's calls for each kind's resource `u` (the same objects the program's inputs describe). */
const KIND_CALLS: Record<ResourceKind, (c: Ctx, u: number) => Calls> = {
  RepoConnection: ({ api, made }, u) => ({
    up: async () =>
      void (made.repo[u] = (
        await api.builds.repos.connections.upsert(
          {},
          {
            provider_type: "github",
            provider_account_id: "bench",
            provider_account_name: "Bench",
            repo_id: `r${u}`,
            repo_name: `repo-${u}`,
          },
        )
      ).repo_connection_uuid),
    refresh: async () => void (await api.builds.repos.connections.list()),
    destroy: async () => api.builds.repos.connections.delete({ repoConnectionUuid: made.repo[u]! }),
  }),
  BuildTrigger: ({ api, w, made, deps }, u) => ({
    up: async () =>
      void (made.trigger[u] = (
        await api.builds.triggers.create(
          {},
          {
            external_script_id: w.scriptTags[u]!,
            repo_connection_uuid: deps.repo(u),
            build_token_uuid: w.buildToken,
            trigger_name: "production",
            branch_includes: ["main"],
            build_command: "npm run build",
            deploy_command: "npx wrangler deploy",
            root_directory: "/",
          },
        )
      ).trigger_uuid),
    refresh: async () => void (await api.builds.triggers.list({ scriptTag: w.scriptTags[u]! })),
    destroy: async () => api.builds.triggers.delete({ triggerUuid: made.trigger[u]! }),
  }),
  TriggerEnvVars: ({ api, deps }, u) => ({
    up: async () =>
      void (await api.builds.environmentVariables.upsert({ triggerUuid: deps.trigger(u) }, VARS(u))),
    refresh: async () => void (await api.builds.environmentVariables.list({ triggerUuid: deps.trigger(u) })),
    destroy: async () => {
      for (const key of Object.keys(VARS(u)))
        await api.builds.environmentVariables.delete({
          triggerUuid: deps.trigger(u),
          environmentVariableKey: key,
        });
    },
  }),
  ZoneContentConverter: ({ api, w }, u) => ({
    up: async () => void (await api.content.contentConverter.set({ zoneId: w.zones[u]! }, { value: "on" })),
    refresh: async () => void (await api.content.contentConverter.get({ zoneId: w.zones[u]! })),
    destroy: async () =>
      void (await api.content.contentConverter.set({ zoneId: w.zones[u]! }, { value: "off" })),
  }),
  ConfigRule: ({ api, w }, u) => {
    const zoneId = w.zones[u]!;
    const ref = `bench-${u}`;
    // The API replaces the entrypoint whole: a read, then the write that keeps every other rule.
    const write = async (withOurs: boolean): Promise<void> => {
      const others = ((await api.content.configRuleset.get({ zoneId }))?.rules ?? [])
        .filter((r) => r.ref !== ref)
        .map(ruleAsSent);
      const ours: Sdk.content.ConfigRuleRequest = {
        ref,
        expression: 'starts_with(http.request.uri.path, "/account/")',
        action: "set_config",
        action_parameters: { content_converter: false },
        description: "account pages stay HTML",
        enabled: true,
      };
      await api.content.configRuleset.put({ zoneId }, { rules: withOurs ? [...others, ours] : others });
    };
    return {
      up: () => write(true),
      refresh: async () => void (await api.content.configRuleset.get({ zoneId })),
      destroy: () => write(false),
    };
  },
  MeetingTemplate: ({ api, w, made }, u) => ({
    up: async () =>
      void (made.meeting[u] = (
        await api.meetings.meetings.create({ appId: w.appId }, { title: `Standup ${u}`, persist_chat: true })
      ).id),
    refresh: async () =>
      void (await api.meetings.meetings.get({ appId: w.appId, meetingId: made.meeting[u]! })),
    destroy: async () =>
      void (await api.meetings.meetings.update(
        { appId: w.appId, meetingId: made.meeting[u]! },
        { status: "INACTIVE" },
      )),
  }),
  DomainRegistration: ({ api, sdk, w }, u) => {
    const domain_name = w.domains[u]!;
    const r = w.registrant;
    return {
      up: async () => {
        const quote = await api.registrar.registrations.quote({ domainName: domain_name }, { years: 1 });
        if (quote.currency !== MAX_COST.currency || sdk.compareDecimal(quote.total, MAX_COST.amount) > 0)
          throw new Error(
            `${domain_name}: costs ${quote.total} ${quote.currency}, above the bench's maxCost`,
          );
        const created = await api.registrar.registrations.create(
          {},
          {
            domain_name,
            years: 1,
            auto_renew: true,
            privacy_mode: "redaction",
            contacts: {
              registrant: {
                email: r.email,
                phone: r.phone,
                postal_info: {
                  name: r.name,
                  organization: r.organization,
                  address: {
                    street: r.street,
                    city: r.city,
                    state: r.state,
                    postal_code: r.postalCode,
                    country_code: r.countryCode,
                  },
                },
              },
            },
          },
        );
        if (created.status === 202)
          await api.registrar.registrationWorkflow.wait({ domainName: domain_name });
      },
      refresh: async () => void (await api.registrar.registrations.get({ domainName: domain_name })),
      // The API has no delete: the domain stays registered, as the resource's delete leaves it.
      destroy: async () => {},
    };
  },
  MeetingApp: ({ api }, u) => ({
    up: async () => void (await api.meetings.apps.create({}, { name: `bench-${u}` })),
    refresh: async () => void (await api.meetings.apps.list()),
    // The API has no delete: the app stays, as the resource's delete leaves it.
    destroy: async () => {},
  }),
  SearchInstance: ({ api }, u) => {
    const id = `bench-${u}`;
    return {
      up: async () =>
        void (await api.search.instances.create(
          {},
          { id, type: "web-crawler", source: "docs.example.com", sync_interval: 3600 },
        )),
      refresh: async () => void (await api.search.instances.get({ id })),
      destroy: async () => void (await api.search.instances.delete({ id })),
    };
  },
  SearchNamespace: ({ api }, u) => {
    const name = `bench-${u}`;
    return {
      up: async () =>
        void (await api.search.namespaces.create({}, { name, description: `Bench namespace ${u}` })),
      refresh: async () => void (await api.search.namespaces.get({ name })),
      destroy: () => api.search.namespaces.delete({ name }),
    };
  },
  // The resource looks the name up before its create: the script makes that listing too.
  SearchToken: ({ api, made }, u) => ({
    up: async () => {
      const name = `bench-token-${u}`;
      await api.search.tokens.list({}, { perPage: 100, search: name }).toArray();
      made.token[u] = (
        await api.search.tokens.create({}, { name, cf_api_id: `key-${u}`, cf_api_key: "s3cret" })
      ).id;
    },
    refresh: async () => void (await api.search.tokens.get({ id: made.token[u]! })),
    destroy: async () => void (await api.search.tokens.delete({ id: made.token[u]! })),
  }),
  SendingDomain: ({ api, w, made }, u) => {
    const zoneId = w.zones[u]!;
    const ids = (): { zoneId: string; subdomainId: string } => ({
      zoneId,
      subdomainId: made.sendingDomain[u]!,
    });
    return {
      up: async () => {
        const name = `mail.bench-${u}.example.org`;
        made.sendingDomain[u] = (await api.email.subdomains.create({ zoneId }, { name })).tag;
        // The resource reads the DNS records and their state as outputs: the script does too.
        await api.email.subdomains.dnsStatus(ids());
      },
      refresh: async () => {
        await api.email.subdomains.get(ids());
        await api.email.subdomains.dnsStatus(ids());
      },
      destroy: async () => void (await api.email.subdomains.delete(ids())),
    };
  },
};

/** The shape's tasks for one phase; exported so a test can see every kind has its calls. */
export function tasks(c: Omit<Ctx, "deps">, shape: Shape, count: number, phase: Phase): Map<string, Task> {
  const all = new Map<string, Task>();
  const add = (key: string, after: string[], calls: Calls): void =>
    void all.set(key, { after, run: calls[phase] });
  if (shape !== "mix") {
    const kind = shape === "repos" ? "RepoConnection" : shape;
    const ctx: Ctx = { ...c, deps: { repo: () => c.w.repoConnection, trigger: (u) => c.w.triggers[u]! } };
    for (let u = 0; u < count; u++) add(kindName(kind, u), [], KIND_CALLS[kind](ctx, u));
    return all;
  }
  const ctx: Ctx = { ...c, deps: { repo: (u) => c.made.repo[u]!, trigger: (u) => c.made.trigger[u]! } };
  // Destroy runs the graph backwards: a dependent goes before what it depends on.
  const dep = (on: string, of: string): [string[], string[]] =>
    phase === "destroy" ? [[of], []] : [[], [on]];
  for (let u = 0; u < count / UNIT; u++) {
    const [repoAfter, triggerAfterRepo] = dep(`repo-${u}`, `trigger-${u}`);
    const [triggerAfterVars, varsAfter] = dep(`trigger-${u}`, `vars-${u}`);
    add(`repo-${u}`, repoAfter, KIND_CALLS.RepoConnection(ctx, u));
    add(`trigger-${u}`, [...triggerAfterRepo, ...triggerAfterVars], KIND_CALLS.BuildTrigger(ctx, u));
    add(`vars-${u}`, varsAfter, KIND_CALLS.TriggerEnvVars(ctx, u));
    add(`search-${u}`, [], KIND_CALLS.SearchInstance(ctx, u));
    add(`meeting-${u}`, [], KIND_CALLS.MeetingTemplate(ctx, u));
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
  const made: Made = { repo: [], trigger: [], meeting: [], token: [], sendingDomain: [] };
  const out = { seconds: { up: 0, refresh: 0, destroy: 0 }, requests: { up: 0, refresh: 0, destroy: 0 } };
  try {
    for (const phase of ["up", "refresh", "destroy"] as const) {
      const before = served();
      out.seconds[phase] = await seconds(() =>
        runGraph(tasks({ api, sdk, w, made }, shape, count, phase), parallel),
      );
      out.requests[phase] = served() - before;
    }
  } finally {
    await api.close();
  }
  return out;
}
