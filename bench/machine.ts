/** What the figures were measured on: the machine, the versions, and how loaded the machine was. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem, type } from "node:os";
import { join } from "node:path";
import { ENGINE_BIN, REPO_ROOT } from "./paths";

export interface Machine {
  description: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  os: string;
}

export function machine(): Machine {
  const list = cpus();
  const cpuModel = list[0]?.model.trim() ?? "unknown cpu";
  const memoryGb = Math.round(totalmem() / 2 ** 30);
  const os = `${type()} ${release()}`;
  return {
    description: `${list.length} × ${cpuModel}, ${memoryGb} GiB, ${os}`,
    cpus: list.length,
    cpuModel,
    memoryGb,
    os,
  };
}

function packageVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

export function versions(): Record<string, string> {
  const modules = join(REPO_ROOT, "node_modules");
  return {
    pulumi: execFileSync(join(ENGINE_BIN, "pulumi"), ["version"], { encoding: "utf8" })
      .trim()
      .replace(/^v/, ""),
    "@pulumi/pulumi": packageVersion(join(modules, "@pulumi", "pulumi")),
    node: process.versions.node,
    "pulumi-account-api": packageVersion(REPO_ROOT),
    cloudflare: packageVersion(join(modules, "cloudflare")),
    undici: packageVersion(join(modules, "undici")),
  };
}

/** Samples the one-minute load average while the bench runs: a machine shared with others shows here. */
export class LoadMonitor {
  readonly #samples: number[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(everyMs = 10_000) {
    this.#samples.push(loadavg()[0]!);
    this.#timer = setInterval(() => this.#samples.push(loadavg()[0]!), everyMs);
    this.#timer.unref();
  }

  stop(): { mean: number; max: number; cpus: number; loaded: boolean } {
    clearInterval(this.#timer);
    this.#samples.push(loadavg()[0]!);
    const mean = this.#samples.reduce((a, b) => a + b, 0) / this.#samples.length;
    const max = Math.max(...this.#samples);
    const n = cpus().length;
    // The bench itself keeps about one core busy; more than that is someone else's work.
    return { mean, max, cpus: n, loaded: mean > n };
  }
}
