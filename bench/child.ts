/**
 * One engine run, in its own process so that its peak memory is the program's own: the inline
 * program (from the installed package), driven by the installed SDK's Automation API against the
 * parent's emulator. Answers the parent over IPC.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type * as Automation from "@pulumi/pulumi/automation";
import type * as Pulumi from "@pulumi/pulumi";
import type * as Provider from "../provider";
import { watchCheckpoint, type Writes } from "./checkpoint";
import { measureDrift } from "./drift";
import { ENGINE_BIN } from "./paths";
import { ownPeakRssMb, watchPeakRss } from "./proc";
import { program } from "./programs";
import {
  STATE_PARTS,
  type ChildMessage,
  type Phase,
  type RunResult,
  type RunSpec,
  type StateFigures,
  type StatePart,
} from "./protocol";
import { isRecord } from "../provider/core/values";
import { seconds } from "./stats";
import { parseProbe, phaseTimeline, type Interval, type LoggedRequest, type PhaseTimeline } from "./timeline";
import { requestsServed } from "./world";

const PROJECT = "bench";
const PROBE = join(__dirname, "host-probe.cjs");
const probeFile = (spec: RunSpec): string => join(spec.scratch, "probe.jsonl");
const wallNow = (): number => performance.timeOrigin + performance.now();

function engineEnvironment(spec: RunSpec): Record<string, string> {
  const backend = join(spec.scratch, "backend");
  const w = spec.program.world;
  return {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_HOME: join(spec.scratch, "home"),
    PATH: [ENGINE_BIN, join(spec.installed.project, "node_modules", ".bin"), process.env.PATH ?? ""].join(
      ":",
    ),
    ACCOUNT_API_BASE_URL: w.url,
    ACCOUNT_API_ACCOUNT_ID: w.accountId,
    ACCOUNT_API_TOKEN: w.token,
    ...(spec.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    // The provider host reports its start, its first answers and each call (bench/host-probe.cjs).
    NODE_OPTIONS: `--require ${PROBE}`,
    BENCH_PROBE_FILE: probeFile(spec),
  };
}

interface Deployed {
  resources: ({ type: string; inputs?: Record<string, unknown> } & Record<string, unknown>)[];
}

/** The bytes of one `"key":value` member, as compact JSON writes it (with its comma). */
const member = (key: string, value: unknown): number => JSON.stringify({ [key]: value }).length - 1;

function partsOf(resources: Deployed["resources"]): Record<StatePart, number> {
  const sum: Record<StatePart, number> = { provider: 0, stack: 0, inputs: 0, outputs: 0, other: 0 };
  for (const r of resources)
    for (const [key, value] of Object.entries(r)) {
      if ((key === "inputs" || key === "outputs") && value && typeof value === "object") {
        for (const [k, v] of Object.entries(value))
          sum[k === "__provider" ? "provider" : key] += member(k, v);
        sum[key] += member(key, {});
      } else sum[key === "sourcePosition" || key === "stackTrace" ? "stack" : "other"] += member(key, value);
    }
  for (const p of STATE_PARTS) sum[p] = Math.round(sum[p] / (resources.length || 1));
  return sum;
}

function stateFigures(file: string, writes: Writes): StateFigures {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { checkpoint: { latest: Deployed } };
  // The program's resources: not the stack, not a provider resource (the native plugin's default one).
  const dynamic = raw.checkpoint.latest.resources.filter(
    (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
  );
  const byText = new Map<string, { kind: string; bytes: number; copies: number }>();
  for (const r of dynamic) {
    const text = r.inputs?.__provider;
    if (typeof text !== "string") continue;
    const seen = byText.get(text) ?? {
      kind: r.type.split(":").at(-1) ?? r.type,
      bytes: text.length,
      copies: 0,
    };
    seen.copies++;
    byText.set(text, seen);
  }
  return {
    checkpointBytes: statSync(file).size,
    resources: dynamic.length,
    providers: [...byText.values()],
    writes: writes.writes,
    bytesWritten: writes.bytes,
    parts: partsOf(dynamic),
  };
}

const readIfThere = (file: string): string => (existsSync(file) ? readFileSync(file, "utf8") : "");

/** The emulator's request log (API requests only: the control API is not logged). */
async function loggedRequests(origin: string): Promise<LoggedRequest[]> {
  const body: unknown = await (await fetch(`${origin}/__emulator/requests`)).json();
  const list: unknown = Array.isArray(body) ? body : isRecord(body) ? body.result : [];
  return Array.isArray(list)
    ? list.flatMap((e: unknown) =>
        isRecord(e) && typeof e.at === "number" && typeof e.durationMs === "number"
          ? [{ at: e.at, durationMs: e.durationMs }]
          : [],
      )
    : [];
}

async function run(spec: RunSpec): Promise<RunResult> {
  const { project, pkg } = spec.installed;
  const modules = join(project, "node_modules");
  const auto = require(join(modules, "@pulumi", "pulumi", "automation")) as typeof Automation;
  const pulumi = require(join(modules, "@pulumi", "pulumi")) as typeof Pulumi;
  const P = require(join(pkg, "dist", "provider")) as typeof Provider;
  mkdirSync(join(spec.scratch, "backend"), { recursive: true });
  const env = engineEnvironment(spec);
  const stackName = `${spec.program.variant}-${spec.program.count}`;
  let declared: Interval | undefined;
  const declare = program(spec.program, pulumi, P);
  const timed = async (): Promise<void> => {
    const t0 = wallNow();
    await declare();
    declared = [t0, wallNow()];
  };
  const stack = await auto.LocalWorkspace.createStack(
    { stackName, projectName: PROJECT, program: timed },
    {
      workDir: project,
      pulumiCommand: await auto.PulumiCommand.get({ root: join(ENGINE_BIN, ".."), skipVersionCheck: true }),
      envVars: env,
      projectSettings: { name: PROJECT, runtime: "nodejs", backend: { url: env.PULUMI_BACKEND_URL! } },
    },
  );
  const file = join(spec.scratch, "backend", ".pulumi", "stacks", PROJECT, `${stackName}.json`);
  const timeline: Partial<Record<Phase, PhaseTimeline>> = {};
  const result: RunResult = {
    seconds: {},
    requests: {},
    timeline,
    programPeakRssMb: 0,
    providerPeakRssMb: 0,
  };
  const origin = spec.program.world.origin;
  const provider = watchPeakRss(
    spec.program.variant === "native" ? /native\/plugin\.js/ : /dynamic-provider/,
  );
  const parallel = spec.parallel;
  const commands: Record<Exclude<Phase, "drift">, () => Promise<{ summary: { result: string } }>> = {
    up: () => stack.up({ parallel }),
    "up-again": () => stack.up({ parallel }),
    "up-refreshed": () => stack.up({ parallel, refresh: true }),
    refresh: () => stack.refresh({ parallel }),
    destroy: () => stack.destroy({ parallel }),
  };
  for (const phase of spec.phases) {
    const before = await requestsServed(spec.program.world.origin);
    if (phase === "drift") {
      // Drift is reported, never fatal: the command is being reworked.
      result.drift = await measureDrift(await stack.exportStack(), stackName, spec, env).catch(
        (err: unknown) => ({
          method: "read-path" as const,
          seconds: Number.NaN,
          resources: 0,
          inSync: 0,
          note: `drift could not be measured: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    } else {
      const watcher = phase === "up" ? watchCheckpoint(file) : undefined;
      await fetch(`${origin}/__emulator/requests`, { method: "DELETE" });
      declared = undefined;
      let outcome = "";
      const started = wallNow();
      result.seconds[phase] = await seconds(async () => {
        outcome = (await commands[phase]()).summary.result;
      });
      const ended = wallNow();
      if (outcome !== "succeeded") throw new Error(`${phase}: ${outcome}`);
      timeline[phase] = phaseTimeline({
        started,
        ended,
        probe: parseProbe(readIfThere(probeFile(spec))),
        requests: await loggedRequests(origin),
        ...(declared ? { program: declared } : {}),
      });
      const writes = watcher?.stop();
      if (writes && !result.state) result.state = stateFigures(file, writes);
    }
    result.requests[phase] = (await requestsServed(spec.program.world.origin)) - before;
  }
  result.providerPeakRssMb = provider.stop();
  result.programPeakRssMb = ownPeakRssMb();
  return result;
}

process.once("message", (spec: RunSpec) => {
  run(spec).then(
    (result) => process.send?.({ ok: true, result } satisfies ChildMessage, () => process.exit(0)),
    (err: unknown) =>
      process.send?.(
        {
          ok: false,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        } satisfies ChildMessage,
        () => process.exit(1),
      ),
  );
});
