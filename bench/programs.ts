/**
 * The programs the engine runs, all with the same graph: units of five resources, a repository
 * connection ← a production build trigger ← its environment variables, a search instance and a meeting
 * template (a mix of four API areas, with dependencies three deep).
 * - `ours`: the package's resources, from the installed copy;
 * - `floor`: the engine's floor, a no-op dynamic provider shared by every resource (one object, no
 *   API call): what any dynamic provider costs at this count;
 * - `naive` (repository connections only): a provider object per resource that captures its client,
 *   the way a first dynamic provider is usually written; for the state figures.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type * as Provider from "../provider";
import type { World } from "./world";

export type Variant = "ours" | "floor" | "naive";
export type Shape = "mix" | "repos";

export const UNIT = 5;

export interface ProgramSpec {
  variant: Variant;
  shape: Shape;
  count: number;
  world: World;
}

type Inputs = Record<string, Pulumi.Input<unknown>>;

/** One call per resource of the graph: (kind, name, inputs, depends on). Outputs flow as ids. */
type Declare = (kind: string, name: string, inputs: Inputs) => Pulumi.Output<string>;

function graph(spec: ProgramSpec, declare: Declare): void {
  const w = spec.world;
  const repo = (u: number): Pulumi.Output<string> =>
    declare("RepoConnection", `repo-${u}`, {
      providerType: "github",
      providerAccountId: "bench",
      providerAccountName: "Bench",
      repoId: `r${u}`,
      repoName: `repo-${u}`,
    });
  if (spec.shape === "repos") {
    for (let u = 0; u < spec.count; u++) repo(u);
    return;
  }
  for (let u = 0; u < spec.count / UNIT; u++) {
    const trigger = declare("BuildTrigger", `trigger-${u}`, {
      externalScriptId: w.scriptTags[u]!,
      repoConnectionUuid: repo(u),
      buildTokenUuid: w.buildToken,
      kind: "production",
      branchIncludes: ["main"],
      buildCommand: "npm run build",
    });
    declare("TriggerEnvVars", `vars-${u}`, {
      triggerUuid: trigger,
      variables: { MODE: { value: "fast" }, UNIT: { value: String(u) } },
    });
    declare("SearchInstance", `search-${u}`, {
      instanceId: `bench-${u}`,
      type: "web-crawler",
      source: "docs.example.com",
      syncInterval: 3600,
    });
    declare("MeetingTemplate", `meeting-${u}`, { appId: w.appId, title: `Standup ${u}`, persistChat: true });
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
      case "MeetingTemplate":
        return new P.MeetingTemplate(name, args).id;
      default:
        throw new Error(`bench: no class for ${kind}`);
    }
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
        : spec.variant === "floor"
          ? floor(pulumi)
          : naive(pulumi, spec.world);
    graph(spec, declare);
  };
}
