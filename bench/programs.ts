/**
 * The programs the engine runs, all with the same graph: units of five resources, a repository
 * connection ← a production build trigger ← its environment variables, a search instance and a meeting
 * template (a mix of four API areas, with dependencies three deep); or, for the per-kind request
 * counts, N resources of one kind alone, their prerequisites made in the world.
 * - `ours`: the package's resources, from the installed copy;
 * - `floor`: the engine's floor, a no-op dynamic provider shared by every resource (one object, no
 *   API call): what any dynamic provider costs at this count;
 * - `naive` (repository connections only): a provider object per resource that captures its client,
 *   the way a first dynamic provider is usually written; for the state figures;
 * - `native`: the same resources through the native provider plugin (`account-api:index:<Kind>`, the
 *   plugin found on PATH), as a YAML, Python or Go program declares them.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type * as Provider from "../provider";
import type { ResourceKind } from "../provider";
import { NO_NEEDS, type World, type WorldNeeds } from "./world";

export type Variant = "ours" | "floor" | "naive" | "native";
/** The mix, repository connections alone (the state study), or one resource kind alone (its requests). */
export type Shape = "mix" | "repos" | ResourceKind;

export const UNIT = 5;

export interface ProgramSpec {
  variant: Variant;
  shape: Shape;
  count: number;
  world: World;
}

type Inputs = Record<string, Pulumi.Input<unknown>>;

/** One call per resource of the graph: (kind, name, inputs, depends on). Outputs flow as ids. */
type Declare = (kind: ResourceKind, name: string, inputs: Inputs) => Pulumi.Output<string>;

/**
 * Each kind's ordinary inputs for resource `u` (as docs/resources.md and examples/ write them), its
 * prerequisites taken from the world. The mix passes the trigger's repository connection and the
 * variables' trigger from its own graph instead.
 */
export const KIND_INPUTS: Record<ResourceKind, (w: World, u: number) => Inputs> = {
  BuildTrigger: (w, u) => ({
    externalScriptId: w.scriptTags[u]!,
    repoConnectionUuid: w.repoConnection,
    buildTokenUuid: w.buildToken,
    kind: "production",
    branchIncludes: ["main"],
    buildCommand: "npm run build",
  }),
  TriggerEnvVars: (w, u) => ({
    triggerUuid: w.triggers[u]!,
    variables: { MODE: { value: "fast" }, UNIT: { value: String(u) } },
  }),
  RepoConnection: (_w, u) => ({
    providerType: "github",
    providerAccountId: "bench",
    providerAccountName: "Bench",
    repoId: `r${u}`,
    repoName: `repo-${u}`,
  }),
  ZoneContentConverter: (w, u) => ({ zoneId: w.zones[u]!, value: "on" }),
  ConfigRule: (w, u) => ({
    zoneId: w.zones[u]!,
    pathPrefix: "/account/",
    actionParameters: { contentConverter: false },
    description: "account pages stay HTML",
  }),
  MeetingTemplate: (w, u) => ({ appId: w.appId, title: `Standup ${u}`, persistChat: true }),
  DomainRegistration: (w, u) => {
    const r = w.registrant;
    return {
      domainName: w.domains[u]!,
      years: 1,
      maxCost: { amount: "25.00", currency: "USD" },
      autoRenew: true,
      privacyMode: "redaction",
      contacts: {
        registrant: {
          email: r.email,
          phone: r.phone,
          postalInfo: {
            name: r.name,
            organization: r.organization,
            address: {
              street: r.street,
              city: r.city,
              state: r.state,
              postalCode: r.postalCode,
              countryCode: r.countryCode,
            },
          },
        },
      },
    };
  },
  MeetingApp: (_w, u) => ({ name: `bench-${u}` }),
  SearchInstance: (_w, u) => ({
    instanceId: `bench-${u}`,
    type: "web-crawler",
    source: "docs.example.com",
    syncInterval: 3600,
  }),
  SearchNamespace: (_w, u) => ({ name: `bench-${u}`, description: `Bench namespace ${u}` }),
  SearchToken: (_w, u) => ({ name: `bench-token-${u}`, cfApiId: `key-${u}`, cfApiKey: "s3cret" }),
  SendingDomain: (w, u) => ({ zoneId: w.zones[u]!, name: `mail.bench-${u}.example.org` }),
};

/** What a shape needs made in the world before the latency is on. */
export function worldNeeds(shape: Shape, count: number): WorldNeeds {
  switch (shape) {
    case "mix":
      return { ...NO_NEEDS, scripts: count / UNIT };
    case "repos":
    case "RepoConnection":
    case "MeetingTemplate":
    case "SearchInstance":
    case "MeetingApp":
    case "SearchNamespace":
    case "SearchToken":
      return NO_NEEDS;
    case "BuildTrigger":
      return { ...NO_NEEDS, scripts: count, repoConnection: true };
    case "TriggerEnvVars":
      return { ...NO_NEEDS, scripts: count, triggers: count };
    case "ZoneContentConverter":
    case "ConfigRule":
    case "SendingDomain":
      return { ...NO_NEEDS, zones: count };
    case "DomainRegistration":
      return { ...NO_NEEDS, domains: count };
  }
}

/** The resource name of kind `kind`'s `u`th resource in a per-kind program. */
export const kindName = (kind: ResourceKind, u: number): string => `${kind}-${u}`;

/** Declares the spec's graph; exported so a test can see each shape's resources without an engine. */
export function graph(spec: ProgramSpec, declare: Declare): void {
  const w = spec.world;
  const repo = (u: number): Pulumi.Output<string> =>
    declare("RepoConnection", `repo-${u}`, KIND_INPUTS.RepoConnection(w, u));
  if (spec.shape === "repos") {
    for (let u = 0; u < spec.count; u++) repo(u);
    return;
  }
  if (spec.shape !== "mix") {
    const kind = spec.shape;
    for (let u = 0; u < spec.count; u++) declare(kind, kindName(kind, u), KIND_INPUTS[kind](w, u));
    return;
  }
  for (let u = 0; u < spec.count / UNIT; u++) {
    const trigger = declare("BuildTrigger", `trigger-${u}`, {
      ...KIND_INPUTS.BuildTrigger(w, u),
      repoConnectionUuid: repo(u),
    });
    declare("TriggerEnvVars", `vars-${u}`, { ...KIND_INPUTS.TriggerEnvVars(w, u), triggerUuid: trigger });
    declare("SearchInstance", `search-${u}`, KIND_INPUTS.SearchInstance(w, u));
    declare("MeetingTemplate", `meeting-${u}`, KIND_INPUTS.MeetingTemplate(w, u));
  }
}

/** The package's classes, each resource's id as the output downstream resources take. */
function ours(P: typeof Provider): Declare {
  return (kind, name, inputs) => {
    const args = inputs as never;
    switch (kind) {
      case "RepoConnection":
        return new P.RepoConnection(name, args).repoConnectionUuid;
      case "BuildTrigger":
        return new P.BuildTrigger(name, args).triggerUuid;
      case "TriggerEnvVars":
        return new P.TriggerEnvVars(name, args).id;
      case "SearchInstance":
        return new P.SearchInstance(name, args).id;
      case "SearchNamespace":
        return new P.SearchNamespace(name, args).name;
      case "SearchToken":
        return new P.SearchToken(name, args).tokenId;
      case "MeetingTemplate":
        return new P.MeetingTemplate(name, args).id;
      case "MeetingApp":
        return new P.MeetingApp(name, args).id;
      case "ZoneContentConverter":
        return new P.ZoneContentConverter(name, args).id;
      case "ConfigRule":
        return new P.ConfigRule(name, args).id;
      case "DomainRegistration":
        return new P.DomainRegistration(name, args).id;
      case "SendingDomain":
        return new P.SendingDomain(name, args).id;
    }
  };
}

/** The output a downstream resource takes: the same as `ours` reads. */
const DOWNSTREAM_OUTPUT: Partial<Record<ResourceKind, string>> = {
  RepoConnection: "repoConnectionUuid",
  BuildTrigger: "triggerUuid",
};

/** The native provider's resources: plain custom resources of its package's tokens. */
function native(pulumi: typeof Pulumi): Declare {
  // A property named in the inputs becomes a property of the resource object, known after create.
  class NativeResource extends pulumi.CustomResource {
    [output: string]: unknown;
  }
  return (kind, name, inputs) => {
    const output = DOWNSTREAM_OUTPUT[kind];
    const r = new NativeResource(
      `account-api:index:${kind}`,
      name,
      output ? { ...inputs, [output]: undefined } : inputs,
    );
    const out = output ? r[output] : r.id;
    if (!pulumi.Output.isInstance(out)) throw new Error(`bench: ${kind} has no output ${output ?? "id"}`);
    return out as Pulumi.Output<string>;
  };
}

/** The floor: one provider object for every resource; create echoes the inputs, nothing is called. */
function floor(pulumi: typeof Pulumi): Declare {
  const noop: Pulumi.dynamic.ResourceProvider = {
    async create(inputs: Record<string, unknown>) {
      return { id: `noop-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`, outs: inputs };
    },
    async read(id: string, props: Record<string, unknown>) {
      return { id, props };
    },
    async diff() {
      return { changes: false };
    },
    async delete() {},
  };
  class Noop extends pulumi.dynamic.Resource {}
  return (kind, name, inputs) => new Noop(noop, name, inputs, {}, "bench-floor", kind).id;
}

/**
 * The naive provider: a new object per resource holding a client (base URL, account, token) whose
 * methods call the API with fetch. Its code and the token are serialized into every resource.
 */
function naive(pulumi: typeof Pulumi, w: World): Declare {
  class Client {
    constructor(
      readonly baseUrl: string,
      readonly accountId: string,
      readonly token: string,
    ) {}
    async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
      const res = await fetch(`${this.baseUrl}/accounts/${this.accountId}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as { result?: Record<string, unknown> };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
      return json.result ?? {};
    }
  }
  class RepoProvider implements Pulumi.dynamic.ResourceProvider {
    constructor(readonly client: Client) {}
    async create(inputs: Record<string, string>) {
      const live = await this.client.call("PUT", "/builds/repos/connections", {
        provider_type: inputs.providerType,
        provider_account_id: inputs.providerAccountId,
        provider_account_name: inputs.providerAccountName,
        repo_id: inputs.repoId,
        repo_name: inputs.repoName,
      });
      return { id: String(live.repo_connection_uuid), outs: { ...inputs, ...live } };
    }
    async read(id: string, props: Record<string, unknown>) {
      return { id, props };
    }
    async delete(id: string) {
      await this.client.call("DELETE", `/builds/repos/connections/${id}`);
    }
  }
  class Naive extends pulumi.dynamic.Resource {}
  return (kind, name, inputs) => {
    if (kind !== "RepoConnection")
      throw new Error("bench: the naive provider makes repository connections only");
    const provider = new RepoProvider(new Client(w.url, w.accountId, w.token));
    return new Naive(provider, name, inputs, {}, "bench-naive", kind).id;
  };
}

/** The inline program for one variant, from the installed copies of the SDK and of the package. */
export function program(spec: ProgramSpec, pulumi: typeof Pulumi, P: typeof Provider): () => Promise<void> {
  return async () => {
    const declare =
      spec.variant === "ours"
        ? ours(P)
        : spec.variant === "native"
          ? native(pulumi)
          : spec.variant === "floor"
            ? floor(pulumi)
            : naive(pulumi, spec.world);
    graph(spec, declare);
  };
}
