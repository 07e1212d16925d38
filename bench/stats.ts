/** Medians with their spread: every figure in the report is the median of its samples, min and max beside it. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** How many samples the median is of. */
  n: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, n: s.length };
}

/** The p-th percentile (0..100) of the samples, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const s = [...samples].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

/** Seconds `fn` takes, on the monotonic clock. */
export async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
}

/** Runs the tasks with at most `limit` at a time, each after the tasks it depends on. */
export async function runGraph<K>(
  tasks: ReadonlyMap<K, { after: readonly K[]; run: () => Promise<void> }>,
  limit: number,
): Promise<void> {
  const done = new Map<K, Promise<void>>();
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (active < limit) {
      active++;
      return;
    }
    await new Promise<void>((r) => waiting.push(r));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  const start = (key: K): Promise<void> => {
    const known = done.get(key);
    if (known) return known;
    const task = tasks.get(key);
    if (!task) throw new Error(`runGraph: no task ${String(key)}`);
    const p = (async () => {
      await Promise.all(task.after.map(start));
      await slot();
      try {
        await task.run();
      } finally {
        release();
      }
    })();
    done.set(key, p);
    return p;
  };
  await Promise.all([...tasks.keys()].map(start));
}

export const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
