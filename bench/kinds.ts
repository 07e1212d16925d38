/**
 * Requests per resource, by kind: for each resource kind, an engine run of N resources of that kind
 * alone (up, refresh, destroy) and the plain script making the same objects, each against a fresh
 * world with its prerequisites made before the latency is on. Every API request is named by its
 * method and path template (ids as `{id}`), so the table shows which requests are ours alone.
 *
 * Engine runs go through `runEngine` (the same child process `engineRun` starts) with a world made
 * here: `engineRun` makes and stops its own world, which holds neither a kind's prerequisites nor,
 * once stopped, the requests served.
 */
import { RESOURCE_KINDS, type ResourceKind } from "../provider/types";
import { install, type Installed } from "./install";
import { runEngine } from "./launch";
import { plainScript } from "./plain";
import { worldNeeds } from "./programs";
import { PARALLEL } from "./scale";
import { startWorld, type RunningWorld, type ServedRequest } from "./world";

/** Resources per kind in the bench's section (the quick run alone takes 5, or its first argument). */
export const KIND_COUNT = 10;

export const KIND_PHASES = ["up", "refresh", "destroy"] as const;
export type KindPhase = (typeof KIND_PHASES)[number];

export interface PhaseRequests {
  total: number;
  /** Requests by template (`GET /accounts/{id}/…`). */
  byRequest: Record<string, number>;
}

export interface KindRequests {
  kind: string;
  count: number;
  ours: Record<KindPhase, PhaseRequests>;
  plain: Record<KindPhase, PhaseRequests>;
}

const API_PREFIX = "/client/v4";

/**
 * A path segment that names an object rather than a collection or an action: the API's own words are
 * lower case without digits or dots, so a segment with a digit (ids, uuids, `bench-3`), a dot (a
 * domain) or in capitals (a variable's key) is an id.
 */
const isId = (segment: string): boolean => /[0-9.]/.test(segment) || /^[A-Z][A-Z0-9_]*$/.test(segment);

/** `GET /client/v4/accounts/1f…/ai-search/instances/bench-0?x=1` → `GET /accounts/{id}/ai-search/instances/{id}?x`. */
export function requestTemplate(method: string, url: string): string {
  const [path = "", query] = url.split("?", 2);
  const rest = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path;
  const template = rest
    .split("/")
    .map((s) => (isId(decodeURIComponent(s)) ? "{id}" : s))
    .join("/");
  const names = query
    ? [...new URLSearchParams(query).keys()].filter((k, i, all) => all.indexOf(k) === i).sort()
    : [];
  return `${method} ${template}${names.length ? `?${names.join("&")}` : ""}`;
}

/**
 * Splits the requests served over a run (in order) into its phases, by each phase's count: the
 * phases run one after another, and only they call the API.
 */
export function splitByPhase(
  served: readonly ServedRequest[],
  counts: Partial<Record<KindPhase, number>>,
): Record<KindPhase, PhaseRequests> {
  const expected = KIND_PHASES.reduce((n, p) => n + (counts[p] ?? 0), 0);
  if (expected !== served.length)
    throw new Error(`the phases counted ${expected} requests, the emulator answered ${served.length}`);
  let at = 0;
  const take = (phase: KindPhase): PhaseRequests => {
    const total = counts[phase] ?? 0;
    const byRequest: Record<string, number> = {};
    for (const r of served.slice(at, at + total)) {
      const t = requestTemplate(r.method, r.url);
      byRequest[t] = (byRequest[t] ?? 0) + 1;
    }
    at += total;
    return { total, byRequest };
  };
  // In the phases' order: each takes the requests after the one before.
  return { up: take("up"), refresh: take("refresh"), destroy: take("destroy") };
}

async function inWorld<T>(
  kind: ResourceKind,
  count: number,
  run: (w: RunningWorld) => Promise<T>,
): Promise<T> {
  const world = await startWorld(worldNeeds(kind, count));
  try {
    return await run(world);
  } finally {
    await world.stop();
  }
}

/** Every kind, `count` resources each: ours (an engine run) beside the plain script. */
export async function kindRequests(
  installed: Installed,
  count: number,
  log: (l: string) => void,
): Promise<KindRequests[]> {
  const rows: KindRequests[] = [];
  for (const kind of RESOURCE_KINDS) {
    const ours = await inWorld(kind, count, async (world) => {
      const result = await runEngine({
        program: { variant: "ours", shape: kind, count, world: world.world },
        installed,
        phases: [...KIND_PHASES],
        parallel: PARALLEL,
        skipCheckpoints: false,
      });
      return splitByPhase(world.served(), result.requests);
    });
    const plain = await inWorld(kind, count, async (world) => {
      const result = await plainScript(installed, world.world, kind, count, PARALLEL, world.requests);
      return splitByPhase(world.served(), result.requests);
    });
    rows.push({ kind, count, ours, plain });
    const per = (p: Record<KindPhase, PhaseRequests>): string =>
      KIND_PHASES.map((ph) => `${ph} ${perResource(p[ph].total, count)}`).join(", ");
    log(`  ${kind.padEnd(20)} ours: ${per(ours)}; plain: ${per(plain)}`);
  }
  return rows;
}

const perResource = (n: number, count: number): string => String(Math.round((n / count) * 100) / 100);

/** The templates ours makes more often than plain, with how many more per resource. */
function onlyOurs(ours: PhaseRequests, plain: PhaseRequests, count: number): string[] {
  return Object.entries(ours.byRequest)
    .map(([t, n]) => [t, n - (plain.byRequest[t] ?? 0)] as const)
    .filter(([, extra]) => extra > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([t, extra]) => `\`${t}\` +${perResource(extra, count)}`);
}

/** One row per kind and phase: requests per resource, ours beside plain, and what only ours sends. */
export function kindRequestsMarkdown(rows: readonly KindRequests[]): string {
  const lines = [
    "| kind | phase | ours per resource | plain per resource | requests only ours make (per resource) |",
    "|---|---|---|---|---|",
  ];
  for (const r of rows)
    for (const phase of KIND_PHASES) {
      const extra = onlyOurs(r.ours[phase], r.plain[phase], r.count);
      lines.push(
        `| ${r.kind} | ${phase} | ${perResource(r.ours[phase].total, r.count)} | ${perResource(r.plain[phase].total, r.count)} | ${extra.length ? extra.join("<br>") : "none"} |`,
      );
    }
  return `${lines.join("\n")}\n`;
}

if (require.main === module) {
  const log = (l: string): void => console.log(l);
  const count = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`count: must be a whole number above 0, not ${process.argv[2]}`);
  const installed = install("HEAD", log);
  kindRequests(installed, count, log).then(
    (rows) => console.log(`\n${kindRequestsMarkdown(rows)}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
