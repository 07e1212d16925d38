/**
 * The account's build minutes and the repository autofill: both derived on read from what the
 * account holds (builds and the clock; a repository connection), nothing stored of their own.
 */
import type { AccountLimits, ConfigAutofill } from "../../sdk/schemas/builds";
import type { BuildRecord, RepoConnectionRecord } from "./model";
import { viewBuild } from "./timeline";

/** Build minutes a month (the public service's free allowance); the control API changes it per account. */
export const DEFAULT_BUILD_MINUTES = 3_000;

/** Midnight UTC of the first day of the month after `now`. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Minutes builds ran this calendar month (UTC), a running build up to now, rounded up per build. */
export function buildMinutesUsed(builds: readonly BuildRecord[], now: number): number {
  const d = new Date(now);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  let minutes = 0;
  for (const b of builds) {
    if (b.created_on < monthStart || b.created_on > now) continue;
    const v = viewBuild(b, now);
    minutes += Math.ceil(((v.stoppedOn ?? now) - b.created_on) / 60_000);
  }
  return minutes;
}

export function accountLimits(
  builds: readonly BuildRecord[],
  now: number,
  allowanceMinutes: number,
): AccountLimits {
  return {
    build_minutes_refresh_on: new Date(nextMonthStart(now)).toISOString(),
    has_reached_build_minutes_limit: buildMinutesUsed(builds, now) >= allowanceMinutes,
  };
}

/** A Worker name from a repository name: lowercase letters, digits and dashes. */
export function workerNameOf(repoName: string): string {
  const slug = repoName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "worker";
}

/**
 * The emulator has no repository to read, so every connected repository looks like a plain npm
 * project with a wrangler.jsonc at the root directory asked for.
 */
export function configAutofill(
  repo: RepoConnectionRecord,
  rootDirectory: string | undefined,
): ConfigAutofill {
  const dir = (rootDirectory ?? "/").replace(/^\/+|\/+$/g, "");
  return {
    config_file: dir ? `${dir}/wrangler.jsonc` : "wrangler.jsonc",
    default_worker_name: workerNameOf(repo.repo_name),
    env_worker_names: {},
    package_manager: "npm",
    scripts: { build: "npm run build", deploy: "npx wrangler deploy" },
  };
}
