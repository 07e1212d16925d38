/**
 * Peak resident memory of processes below this one (the engine's dynamic-provider host), read from
 * /proc: VmHWM is each process's own high-water mark, so polling only has to catch it before it exits.
 */
import { readFileSync, readdirSync } from "node:fs";

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // the process has gone
  }
}

function parentOf(pid: number): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  // The command name is in parentheses and may hold spaces; the ppid is the second field after it.
  const after = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return after ? Number(after[1]) : undefined;
}

function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const ppid = parentOf(pid);
    if (ppid !== undefined) parents.set(pid, ppid);
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && hops < 32; p = parents.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  return [...parents.keys()].filter(below);
}

/** Watches the processes below this one whose command line matches; `stop` gives their peak RSS in MB. */
export function watchPeakRss(match: RegExp, everyMs = 250): { stop(): number } {
  let peakKb = 0;
  const poll = (): void => {
    for (const pid of descendants(process.pid)) {
      const cmdline = read(`/proc/${pid}/cmdline`)?.replace(/\0/g, " ") ?? "";
      if (!match.test(cmdline)) continue;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? "");
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    }
  };
  const timer = setInterval(poll, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      poll();
      return peakKb / 1024;
    },
  };
}

/** This process's own peak RSS so far, in MB. */
export const ownPeakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
