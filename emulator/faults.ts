/**
 * Fault injection, per route: latency, an error rate with a chosen status (429 carries Retry-After),
 * a connection reset, and "commit, then drop the response" (the handler runs and its change is kept,
 * but the client never hears back). Every matching rule applies: latencies add up, and the first rule
 * (in order) whose failure fires decides how the request fails. Each match uses up one of a rule's
 * `times`.
 * Randomness is a seeded generator so an error rate is reproducible.
 */
import { z } from "zod";
import { compilePathPattern, PathPatternError, type PathPattern } from "./path-pattern";

/** The rule's refusal of a pattern, or undefined when it compiles. */
function patternProblem(source: string): string | undefined {
  try {
    compilePathPattern(source);
    return undefined;
  } catch (e) {
    if (e instanceof PathPatternError) return e.message;
    throw e;
  }
}

export const FaultRuleSchema = z.strictObject({
  /** HTTP method to match; any when omitted. */
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
  /** Regular expression tested against the path (without query), in linear time (path-pattern.ts). */
  path: z
    .string()
    .min(1, "must not be empty")
    .superRefine((p, ctx) => {
      const problem = patternProblem(p);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  /** Fraction of matching requests that fail (0..1); default 1 when `status` or `reset` is set. */
  errorRate: z.number().min(0).max(1).optional(),
  status: z
    .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
    .optional(),
  /** Retry-After value sent with the error status (seconds, or an HTTP date). */
  retryAfter: z.string().optional(),
  reset: z.boolean().optional(),
  commitThenDrop: z.boolean().optional(),
  /** How many matching requests the rule applies to before it retires. */
  times: z.number().int().min(1).optional(),
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;

export interface ActiveFault extends FaultRule {
  id: number;
  hits: number;
}

export type FaultAction =
  | { kind: "none"; latencyMs: number }
  | { kind: "status"; latencyMs: number; status: number; retryAfter?: string }
  | { kind: "reset"; latencyMs: number }
  | { kind: "drop"; latencyMs: number };

export class Faults {
  #rules: ActiveFault[] = [];
  /** Each rule's compiled path, by rule id. */
  readonly #patterns = new Map<number, PathPattern>();
  #nextId = 1;
  #seed: number;

  constructor(seed = 42) {
    this.#seed = seed >>> 0 || 1;
  }

  add(rule: FaultRule): ActiveFault {
    const parsed = FaultRuleSchema.parse(rule);
    const active = { ...parsed, id: this.#nextId++, hits: 0 };
    this.#patterns.set(active.id, compilePathPattern(parsed.path));
    this.#rules.push(active);
    return active;
  }

  list(): ActiveFault[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  remove(id: number): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.id !== id);
    this.#patterns.delete(id);
    return this.#rules.length !== before;
  }

  clear(): void {
    this.#rules = [];
    this.#patterns.clear();
  }

  /** What to do with one request; every matching rule applies and uses up one of its `times`. */
  decide(method: string, path: string): FaultAction {
    let latencyMs = 0;
    let failure: FaultAction | undefined;
    for (const rule of [...this.#rules]) {
      if (rule.method && rule.method !== method) continue;
      if (!this.#patterns.get(rule.id)?.test(path)) continue;
      rule.hits++;
      if (rule.times !== undefined && rule.hits >= rule.times) this.remove(rule.id);
      latencyMs += rule.latencyMs ?? 0;
      const failing = rule.status !== undefined || rule.reset || rule.commitThenDrop;
      if (!failing || failure) continue;
      if (this.#random() >= (rule.errorRate ?? 1)) continue;
      failure = rule.reset
        ? { kind: "reset", latencyMs: 0 }
        : rule.commitThenDrop
          ? { kind: "drop", latencyMs: 0 }
          : {
              kind: "status",
              latencyMs: 0,
              status: rule.status ?? 500,
              ...(rule.retryAfter !== undefined ? { retryAfter: rule.retryAfter } : {}),
            };
    }
    return failure ? { ...failure, latencyMs } : { kind: "none", latencyMs };
  }

  /** xorshift32: deterministic for a given seed. */
  #random(): number {
    let x = this.#seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#seed = x >>> 0;
    return this.#seed / 0x1_0000_0000;
  }
}
