/**
 * The one pipeline: `handlerFrom(spec, caps)` derives check, diff, create, read, update and delete
 * from a resource's description. A resource's capabilities say only what no flag can, one small
 * object per concern: how to reach the API (`remote`), defaults and rules across fields and live
 * rules (`checks`), a natural key that finds what a lost create made (`key`), adoption by importId
 * (`adoption`), the odd projection (`reading`), and earlier releases' stored shapes (`history`).
 *
 * Rules kept here, once:
 * - check reports every failure at once, each naming the program's field and the rule, and leaves
 *   anything unknown at preview for the real run;
 * - read: only a 404 (remote.get answering undefined) means gone; every other error propagates;
 * - create makes one object, whatever the network or the engine did: it adopts `importId`; an object
 *   that already holds the natural key is adopted when it is ours (`key.ours`: by default its
 *   settings equal the inputs) and refused, naming `importId`, when it is not; a create whose outcome
 *   is unknown (timeout, reset, 5xx, a dropped response) or that the API refuses as "already held"
 *   (`key.refusedAsHeld`, default a 409) looks the object up, and is sent again only once the look-up
 *   proved it did not land, on the transport's one retry policy and within its deadline; no look-up
 *   precedes the first send unless the kind says nothing else could tell (`key.lookupBeforeCreate`);
 *   a kind without a `key` throws a create's error as it is;
 * - delete: an object already gone is done.
 */
import { mayHaveLanded } from "../../sdk/core";
import { AbortedError, ConflictError, NotFoundError } from "../../sdk/errors";
import { ResourceInputError, inputError } from "../errors";
import type { CheckFailure, CreateResult, HandlerContext, ResourceHandler } from "../types";
import { fromWire, hashName, renameStored, type InputsOf, type ResourceSpec, type StateOf } from "./define";
import { URN_INPUT, keyOfUrn } from "./urn-key";
import { containsUnknown, deepEqual, defined, isUnknown, secretHash } from "./values";

/** Is this input known at check time (false while the engine previews with an unknown value)? */
export type Known = (field: string) => boolean;

export interface InputIssue {
  field: string;
  rule: string;
}

/** What every kind has: the remote object and its four calls. */
export interface Remote<S extends ResourceSpec, L> {
  /** A short name of the remote object for messages ("trigger", "repository connection"). */
  readonly noun: string;
  /** The resource id of a live object. */
  idOf(live: L, inputs: InputsOf<S>): string;
  /** The live object with this id; undefined only when the API says it does not exist (404). */
  get(id: string, state: InputsOf<S>, ctx: HandlerContext): Promise<L | undefined>;
  create(inputs: InputsOf<S>, ctx: HandlerContext): Promise<L>;
  /** Applies `changed` (program names) and answers the live object. */
  update(
    id: string,
    inputs: InputsOf<S>,
    changed: readonly string[],
    olds: StateOf<S>,
    ctx: HandlerContext,
  ): Promise<L>;
  remove(id: string, state: StateOf<S>, ctx: HandlerContext): Promise<void>;
}

/** Check-time work beyond the description: defaults and rules across fields, one look-up, live rules. */
export interface Checks<S extends ResourceSpec> {
  /**
   * Defaults that depend on other inputs (by kind, by name), or on the previous inputs (`olds`, the
   * engine's check convention): a value generated once is kept from them. `key` is derived from the
   * resource's URN (core/urn-key.ts) when the host knows it: a marker built from it is the same on
   * every run, so what a lost create made can be found again.
   */
  normalize?(inputs: InputsOf<S>, known: Known, olds?: Partial<InputsOf<S>>, key?: string): InputsOf<S>;
  /** Rules across fields. Pure; a rule on an unknown field waits for the real run. */
  rules?(inputs: InputsOf<S>, known: Known): InputIssue[];
  /** One API look-up at check that completes the inputs (a script name to its tag). */
  resolve?(inputs: InputsOf<S>, ctx: HandlerContext): Promise<InputsOf<S>>;
  /** Rules against live state at check (at most two triggers per script). */
  checkLive?(
    inputs: InputsOf<S>,
    olds: Partial<InputsOf<S>> | undefined,
    ctx: HandlerContext,
  ): Promise<InputIssue[]>;
}

/** A natural key other than the id: how to find what a lost create made, and whose it is. */
export interface NaturalKey<S extends ResourceSpec, L> {
  /** The field named when an object already holds the natural key (default: the first identity). */
  readonly keyField?: string;
  /** The natural key of these inputs in words, for messages ("github/acme/shop"). */
  keyOf?(inputs: InputsOf<S>): string;
  /** The live object holding the natural key of these inputs, if any. */
  findByKey(inputs: InputsOf<S>, ctx: HandlerContext): Promise<L | undefined>;
  /**
   * Whether a create looks the key up before its first send (default false). A kind turns it on only
   * where an earlier attempt could have made the object and nothing else can tell: the API would
   * accept a second one, so no refusal leads to the look-up. Each look-up is a request per resource
   * on every `up` that creates, which the plain script does not make.
   */
  lookupBeforeCreate?: boolean;
  /**
   * Whether a create's error is the API refusing because something may already hold the key
   * (default: a 409). It leads to the look-up, then to adoption (ours) or a refusal naming importId;
   * with nothing holding the key the error is thrown as it was. For services that answer a duplicate
   * otherwise (a 400, an authoritative check saying "unavailable").
   */
  refusedAsHeld?(err: unknown): boolean;
  /**
   * Whether an object found by `findByKey` is this resource's own, made by an earlier attempt of this
   * create (a dropped response, an interrupted engine) or put in place by a concurrent writer of the
   * same program: a marker we wrote (a generated ref, a keyword) says so. Whatever this hook says,
   * an object whose settings equal the inputs is ours too. Ours is adopted; anything else is refused,
   * naming `importId`.
   */
  ours?(live: L, inputs: InputsOf<S>): boolean;
}

/** Taking over an existing object by importId. */
export interface Adoption<S extends ResourceSpec, L> {
  /** The importId that adopts a live object, where it is not the resource id (default: the id). */
  importIdOf?(live: L, inputs: InputsOf<S>): string;
  /** Checks that an object found by `importId` is the one these inputs describe. */
  adoptable?(live: L, inputs: InputsOf<S>): InputIssue | undefined;
  /**
   * Makes an object found by `importId` this resource's and answers it as it then stands, where
   * updating the inputs that differ is not enough (a rule taken over gets this resource's ref).
   */
  adopt?(id: string, live: L, inputs: InputsOf<S>, ctx: HandlerContext): Promise<L>;
}

/** Reading a live object back where the table's wire mapping is not enough. */
export interface Reading<S extends ResourceSpec, L> {
  /** The inputs of a live object where the table's wire mapping is not enough. */
  project?(live: L, previous: InputsOf<S>, fromTable: InputsOf<S>): InputsOf<S>;
  /** Outputs that need more than the live object's fields (another call, a computed value). */
  outputs?(
    live: L,
    inputs: InputsOf<S>,
    ctx: HandlerContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /**
   * A stored state that no input describes but `update` puts right (a meeting deactivated outside
   * the program): diff then shows a change though no input changed, and adoption updates.
   */
  outOfSync?(state: StateOf<S>): boolean;
  /** Two values of one input that mean the same (a script's name and its tag). */
  same?(field: string, olds: StateOf<S>, news: InputsOf<S>): boolean;
}

/** Stored shapes of earlier releases. */
export interface History {
  /** Earlier releases stored other shapes: bring a stored state to today's. */
  upgrade(state: Record<string, unknown>): Record<string, unknown>;
}

/** What a kind says beyond its description, one object per concern; only `remote` is required. */
export interface Capabilities<S extends ResourceSpec, L> {
  remote: Remote<S, L>;
  checks?: Checks<S>;
  key?: NaturalKey<S, L>;
  adoption?: Adoption<S, L>;
  reading?: Reading<S, L>;
  history?: History;
}

/** The failures of one zod parse, named by the program's field paths; unknowns excepted. */
function parseInputs<S extends ResourceSpec>(
  spec: S,
  given: Record<string, unknown>,
): { inputs?: InputsOf<S>; failures: CheckFailure[]; known: Known } {
  // An input under a name an earlier release took: refused, naming today's (never "not a known field").
  const renamed = Object.keys(given)
    .filter((k) => Object.hasOwn(spec.renamedInputs, k))
    .map((k) => failure(k, `renamed to ${spec.renamedInputs[k]}`));
  const raw = Object.fromEntries(
    Object.entries(given).filter(([k]) => !Object.hasOwn(spec.renamedInputs, k)),
  );
  const unknownKeys = new Set(Object.keys(raw).filter((k) => containsUnknown(raw[k])));
  const known: Known = (k) => !unknownKeys.has(k);
  const knownPart = Object.fromEntries(Object.entries(raw).filter(([k]) => known(k)));
  const parsed = spec.inputSchema.safeParse(knownPart);
  if (parsed.success && renamed.length === 0) {
    // The schema is built from the same fields InputsOf maps over; zod's dynamic shape loses that.
    const inputs = {
      ...parsed.data,
      ...Object.fromEntries([...unknownKeys].map((k) => [k, raw[k]])),
    } as InputsOf<S>;
    return { inputs, failures: [], known };
  }
  const failures = (parsed.success ? [] : parsed.error.issues).flatMap((issue) => {
    const at = issue.path.map(String);
    const paths = issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...at, k]) : [at];
    const rule =
      issue.code === "unrecognized_keys"
        ? "is not a known field"
        : issue.code === "invalid_key"
          ? issue.issues.map((i) => i.message).join("; ")
          : issue.message;
    return paths
      .filter((p) => p.length === 0 || known(p[0] ?? ""))
      .map((p) => failure(p.join(".") || "(inputs)", rule));
  });
  return { failures: [...renamed, ...failures], known };
}

const failure = (field: string, rule: string): CheckFailure => ({
  property: field.split(".")[0] ?? field,
  reason: `${field}: ${rule}`,
});

export function handlerFrom<S extends ResourceSpec, L>(
  spec: S,
  caps: Capabilities<S, L>,
): ResourceHandler<InputsOf<S>, StateOf<S>> {
  const { remote, key: naturalKey, history } = caps;
  // An absent capability is an empty one: every member of these three is optional.
  const checks: Checks<S> = caps.checks ?? {};
  const adoption: Adoption<S, L> = caps.adoption ?? {};
  const reading: Reading<S, L> = caps.reading ?? {};
  const ignoredInDiff = new Set(["importId", ...spec.createOnlyInputs]);

  /** Inputs that differ; write-only ones through their hashes. */
  function changedInputs(olds: StateOf<S>, news: InputsOf<S>): string[] {
    return spec.inputNames.filter((k) => {
      if (ignoredInDiff.has(k)) return false;
      const next: unknown = Reflect.get(news, k);
      if (containsUnknown(next)) return true;
      if (spec.writeOnlyInputs.includes(k)) {
        const had = olds[hashName(k)];
        return (next === undefined ? undefined : secretHash(k, next)) !== had;
      }
      if (deepEqual(Reflect.get(olds, k), next)) return false;
      return !(reading.same?.(k, olds, news) ?? false);
    });
  }

  async function outputsOf(inputs: InputsOf<S>, live: L, ctx: HandlerContext): Promise<StateOf<S>> {
    const hashes: Record<string, string> = {};
    for (const k of spec.writeOnlyInputs) {
      const v: unknown = Reflect.get(inputs, k);
      if (v !== undefined) hashes[hashName(k)] = secretHash(k, v);
    }
    const extra = reading.outputs ? await reading.outputs(live, inputs, ctx) : {};
    // Inputs, the server's values and the hashes: the StateOf union by construction.
    return { ...inputs, ...fromWire(spec, live, "output"), ...hashes, ...extra } as StateOf<S>;
  }

  function project(live: L, previous: InputsOf<S>): InputsOf<S> {
    const fromTable = { ...previous, ...fromWire(spec, live, "input") };
    return reading.project ? reading.project(live, previous, fromTable) : fromTable;
  }

  /** The live object projected onto these inputs, as a stored state (write-only values unseen). */
  async function asState(live: L, inputs: InputsOf<S>, ctx: HandlerContext): Promise<StateOf<S>> {
    const seen = { ...inputs };
    for (const k of spec.writeOnlyInputs) Reflect.deleteProperty(seen, k);
    return outputsOf(project(live, seen), live, ctx);
  }

  /** Makes a live object this resource's: the hook's adoption, else an update of what differs. */
  async function adopt(live: L, inputs: InputsOf<S>, ctx: HandlerContext): Promise<CreateResult<StateOf<S>>> {
    const id = remote.idOf(live, inputs);
    if (adoption.adopt)
      return { id, outs: await outputsOf(inputs, await adoption.adopt(id, live, inputs, ctx), ctx) };
    // The live object cannot show a write-only value: adopting writes the program's.
    const asLive = await asState(live, inputs, ctx);
    const changed = changedInputs(asLive, inputs).filter((k) => !spec.replaceKeys.includes(k));
    const stale = changed.length > 0 || (reading.outOfSync?.(asLive) ?? false);
    const updated = stale ? await remote.update(id, inputs, changed, asLive, ctx) : live;
    return { id, outs: await outputsOf(inputs, updated, ctx) };
  }

  /** Settings (inputs the API shows back) that differ between a live object and these inputs. */
  function settingsDiffer(live: L, inputs: InputsOf<S>): string[] {
    const seen = { ...inputs };
    for (const k of spec.writeOnlyInputs) Reflect.deleteProperty(seen, k);
    const projected = project(live, seen);
    return spec.inputNames.filter(
      (k) =>
        k !== "importId" &&
        !spec.writeOnlyInputs.includes(k) &&
        !deepEqual(Reflect.get(projected, k), Reflect.get(inputs, k)),
    );
  }

  // A marker of ours (a generated ref, a keyword) or the very settings the program asks for.
  const isOurs = (live: L, inputs: InputsOf<S>): boolean =>
    (naturalKey?.ours?.(live, inputs) ?? false) || settingsDiffer(live, inputs).length === 0;

  /** An object holding the natural key: adopted when it is ours, refused (naming importId) when not. */
  async function claim(live: L, inputs: InputsOf<S>, ctx: HandlerContext): Promise<CreateResult<StateOf<S>>> {
    if (isOurs(live, inputs)) {
      ctx.log(`${spec.kind}: ${remote.noun} ${remote.idOf(live, inputs)} is this resource's own; adopted`);
      return adopt(live, inputs, ctx);
    }
    const id = remote.idOf(live, inputs);
    const field = naturalKey?.keyField ?? spec.identityKeys.find((k) => k !== "accountId") ?? "importId";
    const key = naturalKey?.keyOf ? naturalKey.keyOf(inputs) : `with this ${field}`;
    const importId = adoption.importIdOf?.(live, inputs) ?? id;
    const differ = settingsDiffer(live, inputs);
    const why = differ.length ? ` with other settings (${differ.join(", ")})` : "";
    throw inputError(
      field,
      `a ${remote.noun} ${key} already exists (${id})${why}; set importId: "${importId}" to adopt it`,
    );
  }

  const upgrade = (stored: StateOf<S>): StateOf<S> => {
    // A stored state of an earlier release: renamed inputs first, then the resource's own hook.
    const state = renameStored(spec, stored);
    return history ? (history.upgrade({ ...state }) as StateOf<S>) : state;
  };

  return {
    description: spec,
    changedInputs: (stored, news) => changedInputs(upgrade(stored), news),
    async check(olds, news, ctx) {
      const raw = defined(news);
      for (const k of [...spec.outputNames, ...spec.hashOutputs]) delete raw[k];
      // The URN a host passes (never an input of the program's, never stored).
      const urn = raw[URN_INPUT];
      delete raw[URN_INPUT];
      const key = typeof urn === "string" && urn !== "" ? keyOfUrn(urn) : undefined;
      const parsed = parseInputs(spec, raw);
      if (!parsed.inputs) return { failures: parsed.failures };
      // A value generated once is kept from the stored inputs, whatever release stored them.
      const stored = olds && renameStored(spec, olds);
      let inputs = checks.normalize
        ? checks.normalize(parsed.inputs, parsed.known, stored, key)
        : parsed.inputs;
      const failures = (checks.rules?.(inputs, parsed.known) ?? []).map((i) => failure(i.field, i.rule));
      if (failures.length) return { inputs, failures };
      try {
        if (checks.resolve && !containsUnknown(inputs)) inputs = await checks.resolve(inputs, ctx);
        if (checks.checkLive && !containsUnknown(inputs))
          failures.push(
            ...(await checks.checkLive(inputs, stored, ctx)).map((i) => failure(i.field, i.rule)),
          );
      } catch (err) {
        if (!(err instanceof ResourceInputError)) throw err;
        failures.push(failure(err.field, err.rule));
      }
      return { inputs, failures };
    },

    async diff(_id, stored, news) {
      const olds = upgrade(stored);
      const changed = changedInputs(olds, news);
      const replaces = changed.filter((k) => spec.replaceKeys.includes(k));
      const identityChanged = replaces.some((k) => spec.identityKeys.includes(k));
      const deleteBeforeReplace =
        replaces.length > 0 &&
        (spec.deleteBeforeReplace === true ||
          (spec.deleteBeforeReplace === "sameIdentity" && !identityChanged));
      const changes = changed.length > 0 || (reading.outOfSync?.(olds) ?? false);
      return { changes, replaces, deleteBeforeReplace };
    },

    async create(inputs, ctx) {
      if (inputs.importId !== undefined) {
        const live = await remote.get(inputs.importId, inputs, ctx);
        if (live === undefined)
          throw inputError("importId", `${remote.noun} ${inputs.importId} not found; nothing to adopt`);
        const mismatch = adoption.adoptable?.(live, inputs);
        if (mismatch) throw inputError(mismatch.field, mismatch.rule);
        return adopt(live, inputs, ctx);
      }
      // An earlier attempt (an interrupted engine, a response lost) may have made it already.
      const before =
        naturalKey?.lookupBeforeCreate === true ? await naturalKey.findByKey(inputs, ctx) : undefined;
      if (before !== undefined) return claim(before, inputs, ctx);
      const transport = ctx.api.client;
      const startedAt = transport.now();
      for (let sent = 1; ; sent++) {
        try {
          const live = await remote.create(inputs, ctx);
          return { id: remote.idOf(live, inputs), outs: await outputsOf(inputs, live, ctx) };
        } catch (err) {
          const exists = naturalKey?.refusedAsHeld
            ? naturalKey.refusedAsHeld(err)
            : err instanceof ConflictError;
          if (!naturalKey || (!exists && !mayHaveLanded(err))) throw err;
          let found: L | undefined;
          try {
            found = await naturalKey.findByKey(inputs, ctx);
          } catch (lookupErr) {
            // The outcome stays unknown: the create's own error is the one to show.
            throw lookupErr instanceof AbortedError ? lookupErr : err;
          }
          if (found !== undefined) return claim(found, inputs, ctx);
          // "Already exists" yet nothing holds the key: nothing to adopt, and sending again cannot help.
          if (exists) throw err;
          const delay = transport.retryAfterUnlanded(sent, startedAt);
          if (delay === undefined) throw err;
          ctx.log(
            `${spec.kind}: the ${remote.noun} was not made (${describe(err)}); sending the create again`,
          );
          await transport.pause(delay, `create of a ${remote.noun}`);
        }
      }
    },

    async find(inputs, ctx) {
      const live = await naturalKey?.findByKey(inputs, ctx);
      return live !== undefined && isOurs(live, inputs) ? remote.idOf(live, inputs) : undefined;
    },

    async read(id, stored, ctx) {
      const state = upgrade(stored);
      const live = await remote.get(id, state, ctx);
      if (live === undefined) return undefined;
      const inputs = project(live, pickInputs(spec, state));
      return { id, props: await outputsOf(inputs, live, ctx), inputs };
    },

    async update(id, stored, news, ctx) {
      const olds = upgrade(stored);
      const changed = changedInputs(olds, news).filter((k) => !spec.replaceKeys.includes(k));
      const live = await remote.update(id, news, changed, olds, ctx);
      return { outs: await outputsOf(news, live, ctx) };
    },

    async delete(id, stored, ctx) {
      try {
        await remote.remove(id, upgrade(stored), ctx);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    },
  };
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The inputs part of a stored state (outputs and hashes dropped). */
function pickInputs<S extends ResourceSpec>(spec: S, state: StateOf<S>): InputsOf<S> {
  const out: Record<string, unknown> = {};
  for (const k of spec.inputNames) {
    const v: unknown = Reflect.get(state, k);
    if (v !== undefined && !isUnknown(v)) out[k] = v;
  }
  // The input names are the InputsOf keys; the state came from the engine as this resource's.
  return out as InputsOf<S>;
}

/** 404 → undefined; any other failure propagates. The one way a hook says "gone". */
export { orGone } from "../../sdk/core";
