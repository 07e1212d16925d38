/**
 * The emulator's only mutable state: one plain-JSON object per area, plus tokens and counters.
 * Every object keyed by user input is a `Dict` (no prototype), so `constructor` or `__proto__` as an
 * id is just another key; the file is read back the same way.
 * Areas get their slice with `area(name, init)`; persistence writes the whole store to a file after
 * every mutating request and loads it at start, so a stack can go up, the emulator restart, and a
 * refresh find everything again.
 */
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { describeIssues } from "../sdk/validate";
import { replaceFileAtomic } from "../sdk/safe-files";

/**
 * A token the emulator accepts. One it made itself keeps its `value` (it is no credential anywhere
 * else); one it was given (ACCOUNT_API_TOKEN, the `token` option) keeps only `salt` and `digest`, an
 * HMAC-SHA-256 of the value, so the state file never holds it.
 */
export interface StoredToken {
  value?: string;
  salt?: string;
  digest?: string;
  scope: "user" | "account";
  /** Permission names, or ["*"] for every permission. */
  permissions: string[];
  accountId: string;
  name?: string;
  /** The first account's token: `POST /__emulator/reset` keeps it. */
  initial?: boolean;
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

/** A state file that cannot be used: names the file and what is wrong with it. */
export class StateFileError extends Error {
  readonly file: string;
  readonly reason: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(`state file ${file}: ${reason}`, options);
    this.name = new.target.name;
    this.file = file;
    this.reason = reason;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** A prototype-less object as the reviver made it, passed through as is (zod's records would copy it). */
const DictSchema = <T>(value: z.ZodType<T>, rule: string) =>
  z.custom<Dict<T>>((v) => isRecord(v) && Object.values(v).every((x) => value.safeParse(x).success), {
    error: rule,
  });

const StoredTokenSchema = z
  .object({
    value: z.string().min(1).optional(),
    salt: z.string().min(1).optional(),
    digest: z.string().min(1).optional(),
    scope: z.enum(["user", "account"]),
    permissions: z.array(z.string()),
    accountId: z.string().min(1),
    name: z.string().optional(),
    initial: z.boolean().optional(),
  })
  .refine((t) => (t.value === undefined) !== (t.digest === undefined || t.salt === undefined), {
    message: "must hold either value, or salt and digest",
  });

const StoreDataSchema = z.object({
  version: z.literal(1, { error: "must be 1 (the only version this emulator reads)" }),
  accountId: z.string().min(1).max(32),
  tokens: z.array(StoredTokenSchema),
  counters: DictSchema(z.number().int().min(0), "must be an object of whole numbers"),
  areas: DictSchema(z.unknown(), "must be an object"),
});

type StoreData = z.output<typeof StoreDataSchema>;

/** Reads a state file, never through a link; widens nothing: a file others could read becomes 0600. */
function loadStateFile(file: string): StoreData | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = e instanceof Error && "code" in e ? e.code : undefined;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP")
      throw new StateFileError(
        file,
        "is a symbolic link; refusing to use it (the emulator writes this file)",
      );
    throw new StateFileError(file, `cannot be read (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
    });
  }
  let text: string;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new StateFileError(file, "is not a regular file");
    // Older emulators wrote it 0644; it holds the emulator's token.
    if ((st.mode & 0o077) !== 0) fchmodSync(fd, st.mode & 0o700);
    text = readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text, withoutPrototypes);
  } catch (e) {
    throw new StateFileError(file, `is not JSON (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
    });
  }
  if (isRecord(raw) && raw["version"] !== undefined && raw["version"] !== 1)
    throw new StateFileError(
      file,
      `unsupported version ${JSON.stringify(raw["version"])} (this emulator reads 1)`,
    );
  const parsed = StoreDataSchema.safeParse(raw);
  if (!parsed.success)
    throw new StateFileError(
      file,
      `not an emulator state: ${describeIssues(parsed.error)
        .map((i) => `${i.field || "(the whole file)"}: ${i.rule}`)
        .join("; ")}`,
    );
  return parsed.data;
}

export class Store {
  #data: StoreData;
  readonly #file: string | undefined;
  readonly #initial: { accountId: string; tokens: StoredToken[] };
  /** Whether the state came from the file. */
  readonly loaded: boolean = false;

  /**
   * `tokens` are the first account's when no state file is loaded. A loaded file keeps its own account
   * and first tokens (those marked `initial`, or, in files of earlier emulators, the one named
   * `default`): reset returns to them, not to tokens nobody was ever told.
   */
  constructor(opts: { accountId: string; tokens: StoredToken[]; file?: string }) {
    this.#file = opts.file;
    this.#initial = { accountId: opts.accountId, tokens: opts.tokens.map((t) => ({ ...t, initial: true })) };
    this.#data = this.#fresh();
    const loaded = this.#file ? loadStateFile(this.#file) : undefined;
    if (loaded) {
      for (const t of loaded.tokens)
        if (t.initial === undefined && t.name === "default" && t.accountId === loaded.accountId)
          t.initial = true;
      this.#data = loaded;
      this.#initial = {
        accountId: loaded.accountId,
        tokens: loaded.tokens.filter((t) => t.initial).map((t) => ({ ...t })),
      };
      this.loaded = true;
    }
  }

  /** Makes `token` one of the first account's tokens (reset keeps it); replaces `replacing` if given. */
  addInitial(token: StoredToken, replacing?: StoredToken): void {
    const kept = { ...token, initial: true };
    const at = replacing ? this.#data.tokens.indexOf(replacing) : -1;
    if (at >= 0) this.#data.tokens[at] = kept;
    else this.#data.tokens.push(kept);
    const initialAt = replacing ? this.#initial.tokens.findIndex((t) => sameToken(t, replacing)) : -1;
    if (initialAt >= 0) this.#initial.tokens[initialAt] = { ...kept };
    else this.#initial.tokens.push({ ...kept });
  }

  /** The first account's tokens, as reset restores them. */
  get initialTokens(): readonly StoredToken[] {
    return this.#initial.tokens;
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

  /** Forgets every area's state and extra token (the first account and its tokens stay, as loaded). */
  reset(): void {
    this.#data = this.#fresh();
    this.save();
  }

  /** The whole state, as the file holds it (tokens the emulator was given only as digests). */
  snapshot(): unknown {
    return structuredClone(this.#data);
  }

  /** The state without any token's value or digest: what the control API shows. */
  publicSnapshot(): unknown {
    const data = structuredClone(this.#data);
    return {
      ...data,
      tokens: data.tokens.map(({ value: _v, salt: _s, digest: _d, ...token }) => token),
    };
  }

  /** Writes the state: a new file created exclusively with mode 0600, renamed over the old one. */
  save(): void {
    if (!this.#file) return;
    mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
    replaceFileAtomic(this.#file, JSON.stringify(this.#data), { mode: 0o600 });
  }

  #fresh(): StoreData {
    return {
      version: 1 as const,
      accountId: this.#initial.accountId,
      tokens: this.#initial.tokens.map((t) => ({ ...t, permissions: [...t.permissions] })),
      counters: dict(),
      areas: dict(),
    };
  }
}

function sameToken(a: StoredToken, b: StoredToken): boolean {
  return a.value === b.value && a.digest === b.digest && a.accountId === b.accountId;
}
