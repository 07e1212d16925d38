/**
 * The emulator's only mutable state: one plain-JSON object per area, plus tokens and counters.
 * Every object keyed by user input is a `Dict` (no prototype), so `constructor` or `__proto__` as an
 * id is just another key; the file is read back the same way.
 * Areas get their slice with `area(name, init)`; persistence writes the whole store to a file after
 * every mutating request and loads it at start, so a stack can go up, the emulator restart, and a
 * refresh find everything again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface StoredToken {
  value: string;
  scope: "user" | "account";
  /** Permission names, or ["*"] for every permission. */
  permissions: string[];
  accountId: string;
  name?: string;
}

/** A record keyed by user input: no prototype, so no key is inherited and none sets a prototype. */
export type Dict<T> = Record<string, T>;

export function dict<T>(init: Readonly<Record<string, T>> = {}): Dict<T> {
  const d: Dict<T> = Object.create(null);
  for (const [k, v] of Object.entries(init)) d[k] = v;
  return d;
}

/** JSON.parse reviver: every object comes back without a prototype (arrays stay arrays). */
function withoutPrototypes(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.assign(Object.create(null), value);
}

interface StoreData {
  version: 1;
  accountId: string;
  tokens: StoredToken[];
  counters: Record<string, number>;
  areas: Record<string, unknown>;
}

export class Store {
  #data: StoreData;
  readonly #file: string | undefined;
  readonly #initial: { accountId: string; tokens: StoredToken[] };

  constructor(opts: { accountId: string; tokens: StoredToken[]; file?: string }) {
    this.#file = opts.file;
    this.#initial = { accountId: opts.accountId, tokens: opts.tokens.map((t) => ({ ...t })) };
    this.#data = this.#fresh();
    if (this.#file && existsSync(this.#file)) {
      const loaded: StoreData = JSON.parse(readFileSync(this.#file, "utf8"), withoutPrototypes);
      if (loaded.version !== 1)
        throw new Error(`state file ${this.#file}: unsupported version ${String(loaded.version)}`);
      this.#data = loaded;
    }
  }

  get accountId(): string {
    return this.#data.accountId;
  }

  get tokens(): StoredToken[] {
    return this.#data.tokens;
  }

  /** The live state of one area, created by `init` on first use. */
  area<T>(name: string, init: () => T): T {
    if (!Object.hasOwn(this.#data.areas, name)) this.#data.areas[name] = init();
    // Each area is the only reader and writer of its slice, so the slice has the shape its `init` gave it.
    return this.#data.areas[name] as T;
  }

  /** A monotonically increasing number per name, for ids and ordering that survive restarts. */
  next(counter: string): number {
    const n = (this.#data.counters[counter] ?? 0) + 1;
    this.#data.counters[counter] = n;
    return n;
  }

  /** Forgets every area's state and extra token (the initial account and token stay). */
  reset(): void {
    this.#data = this.#fresh();
    this.save();
  }

  snapshot(): unknown {
    return structuredClone(this.#data);
  }

  save(): void {
    if (!this.#file) return;
    mkdirSync(dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.#data));
    renameSync(tmp, this.#file);
  }

  #fresh(): StoreData {
    return {
      version: 1,
      accountId: this.#initial.accountId,
      tokens: this.#initial.tokens.map((t) => ({ ...t, permissions: [...t.permissions] })),
      counters: dict(),
      areas: dict(),
    };
  }
}
