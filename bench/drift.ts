/**
 * Drift over the whole stack: `account-api drift` (the installed package's command) over the stack's
 * export, timed with its start-up; if the command cannot be used (it is being reworked), the
 * provider's `read` path over every resource instead, which is what the command does for each.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as Automation from "@pulumi/pulumi/automation";
import type * as Runtime from "../provider/runtime";
import type { DriftFigures, RunSpec } from "./protocol";
import { runGraph, seconds } from "./stats";

function node(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env, maxBuffer: 256 * 2 ** 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

interface ExportedResource {
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

const TYPE_PREFIX = "pulumi-nodejs:dynamic/account-api:";

async function readPath(
  resources: ExportedResource[],
  spec: RunSpec,
  env: Record<string, string>,
  note: string,
): Promise<DriftFigures> {
  const runtime = require(join(spec.installed.pkg, "dist", "provider", "runtime")) as typeof Runtime;
  // The engine's environment carries the provider's configuration (ACCOUNT_API_*).
  const holder = { session: runtime.openSession(undefined, { ...process.env, ...env }) };
  let inSync = 0;
  const tasks = new Map(
    resources.map((r, i) => [
      i,
      {
        after: [],
        run: async () => {
          const kind = r.type.slice(TYPE_PREFIX.length);
          const read = await runtime.dispatch(kind, "read", holder, [r.id, r.outputs ?? {}]);
          if (read && typeof read === "object" && "id" in read && read.id) inSync++;
        },
      },
    ]),
  );
  const s = await seconds(() => runGraph(tasks, spec.parallel));
  return { method: "read-path", seconds: s, resources: resources.length, inSync, note };
}

interface Report {
  status: string;
}

/** The statuses in what the command printed: the reworked report (`{ resources }`) or the old list. */
function statuses(stdout: string): Report[] | undefined {
  try {
    const out = JSON.parse(stdout) as unknown;
    if (Array.isArray(out)) return out as Report[];
    if (out && typeof out === "object" && "resources" in out && Array.isArray(out.resources))
      return out.resources as Report[];
  } catch {
    // not JSON
  }
  return undefined;
}

/**
 * The command over the stack: today's form (`--stack --cwd --json`, a refresh preview through the
 * engine) first, then the older form that read an export (`--file`).
 */
export async function measureDrift(
  exported: Automation.Deployment,
  stackName: string,
  spec: RunSpec,
  env: Record<string, string>,
): Promise<DriftFigures> {
  const deployment = exported.deployment as { resources: ExportedResource[] };
  const resources = deployment.resources.filter((r) => r.type.startsWith(TYPE_PREFIX) && r.id);
  const file = join(spec.scratch, "export.json");
  writeFileSync(file, JSON.stringify(exported));
  const cli = join(spec.installed.pkg, "dist", "cli", "main.js");
  const childEnv = { ...process.env, ...env } as Record<string, string>;
  const startupSeconds = await seconds(async () => void (await node([cli, "--version"], childEnv)));
  const forms = [
    ["drift", "--stack", stackName, "--cwd", spec.installed.project, "--json"],
    ["drift", "--file", file],
  ];
  const failures: string[] = [];
  for (const form of forms) {
    let outcome = { code: 0, stdout: "", stderr: "" };
    const s = await seconds(async () => {
      outcome = await node([cli, ...form], childEnv);
    });
    const reports = outcome.code === 0 || outcome.code === 2 ? statuses(outcome.stdout) : undefined;
    if (reports)
      return {
        method: "command",
        seconds: s,
        startupSeconds,
        resources: resources.length,
        inSync: reports.filter((r) => r.status === "in-sync").length,
        note: `account-api ${form.slice(0, 2).join(" ")} …`,
      };
    failures.push(
      `${form.slice(0, 2).join(" ")}: exit ${outcome.code}, ${(outcome.stderr || outcome.stdout).trim().split("\n")[0] ?? ""}`,
    );
  }
  const note = `account-api drift was not usable (${failures.join("; ")})`;
  console.error(`bench: ${note}`);
  return readPath(resources, spec, env, note);
}
