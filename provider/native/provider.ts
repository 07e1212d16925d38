/**
 * The native provider `account-api`: the Provider of `@pulumi/pulumi/provider`, with resources
 * dispatched by token (`account-api:index:<Kind>`) to `handlerFor(kind)`, the very pipeline the
 * dynamic resources run, and functions (`account-api:index:<name>`) to the functions table. Beyond
 * the stock interface it answers what the plugin's server (server.ts) asks of it: configuration
 * (configure, checkConfig, diffConfig) and a detailed diff.
 *
 * The engine's values arrive in its wire form (secrets wrapped, unknowns as a sentinel); handlers see
 * them revealed, and what they answer is wrapped again where the program's value was secret or the
 * description flags a field. The token lives in the session only: never in a state or a message.
 */
import type * as pulumi from "@pulumi/pulumi/provider";
import { flushCompileCache } from "../../sdk/compile-cache";
import { ConfigurationError } from "../../sdk/errors";
import {
  CONFIG_NAMESPACE,
  CONFIG_SETTINGS,
  configProblem,
  readProviderConfig,
  type RawConfigReader,
} from "../config";
import { URN_INPUT } from "../core/urn-key";
import { deepEqual, isRecord } from "../core/values";
import { PartialCreateError } from "../errors";
import { handlerFor } from "../registry";
import { describeFailure, openSession, type Session } from "../session";
import {
  RESOURCE_KINDS,
  RUN_KINDS,
  type CheckFailure,
  type HandlerDescription,
  type ProviderKind,
  type ResourceHandler,
} from "../types";
import type * as FunctionTable from "../functions/table";
import { importTarget } from "./import-ids";
import type * as Schema from "./schema";
import { withSecretLeaves } from "./secret-leaves";
import { keepSecrets, markSecret, reveal, revealRecord } from "./secrets";

/** The settings of the provider, as `account-api:<name>` keys and the provider resource's inputs. */
const CONFIG_KEYS = Object.values(CONFIG_SETTINGS).map((s) => s.key);
/** The ones kept secret in the provider's state. */
const SECRET_KEYS = Object.values(CONFIG_SETTINGS)
  .filter((s) => s.secret)
  .map((s) => s.key);

/** How one property changes, in the engine's words (pulumirpc.PropertyDiff.Kind). */
export type PropertyChange =
  "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

export interface DetailedDiffResult extends pulumi.DiffResult {
  readonly changes: boolean;
  readonly replaces: string[];
  /** Every changed input and how: the preview names the field. */
  readonly detailedDiff: Readonly<Record<string, PropertyChange>>;
}

export interface NativeProviderOptions {
  /** The plugin's version (the npm package's). */
  readonly version: string;
  /** Where the environment fallbacks are read; the process's by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where a handler's messages go (the engine's log in the plugin); stderr by default. */
  readonly log?: (message: string) => void;
}

type AnyHandler = ResourceHandler<object, object>;

/**
 * A second Configure that changes the settings. The plugin listens on a loopback port any local
 * process can reach: were a later Configure obeyed, that process could point the provider at its own
 * base URL and have it send the environment's token there. The engine configures a plugin once.
 */
export class ReconfigureRefusedError extends Error {
  /** The settings that differ (their keys, never their values). */
  readonly changed: readonly string[];
  constructor(changed: readonly string[]) {
    super(
      `${PACKAGE_NAME}: Configure refused: this provider is already configured, and this one changes ${changed.map((k) => `${PACKAGE_NAME}:${k}`).join(", ")}; a plugin serves the one configuration it was given first (an identical repeat is accepted)`,
    );
    this.name = new.target.name;
    this.changed = changed;
  }
}

// Loaded when first needed: the table's parameter and result schemas on the first invoke, the
// schema (every description) when the engine asks for it; a plugin serving one kind loads neither.
const functionTable = (): typeof FunctionTable => require("../functions/table");
const schema = (): typeof Schema => require("./schema");

/** The package's name, which is also its configuration namespace; tokens are `<name>:index:<Kind>`. */
const PACKAGE_NAME = CONFIG_NAMESPACE;
const TOKEN_PREFIX = `${PACKAGE_NAME}:index:`;
const KINDS: readonly ProviderKind[] = [...RESOURCE_KINDS, ...RUN_KINDS];

/**
 * The kind of a resource from its urn (`urn:pulumi:<stack>::<project>::<type>::<name>`). Not the
 * schema's kindOfToken: that module loads every description, and a call needs its kind's only.
 */
function kindOfUrn(urn: string): ProviderKind {
  const type = urn.split("::")[2]?.split("$").pop() ?? "";
  const kind = KINDS.find((k) => `${TOKEN_PREFIX}${k}` === type);
  if (!kind) throw new Error(`${PACKAGE_NAME}: unknown resource type ${JSON.stringify(type)}`);
  return kind;
}

/** The provider's own Configure variables (`account-api:config:<key>`), by key. */
function ownVariables(variables: Readonly<Record<string, string>>): Record<string, string> {
  const prefix = `${CONFIG_NAMESPACE}:config:`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(variables)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

/** A reader over the engine's Configure variables (`account-api:config:<key>`). */
function variablesReader(variables: Readonly<Record<string, string>>): RawConfigReader {
  return { get: (key) => variables[key.replace(`${CONFIG_NAMESPACE}:`, `${CONFIG_NAMESPACE}:config:`)] };
}

/** A reader over the provider's inputs (CheckConfig, DiffConfig: `{ apiToken, … }`). */
function inputsReader(inputs: Record<string, unknown>): RawConfigReader {
  return {
    get(key) {
      const v = inputs[key.slice(`${CONFIG_NAMESPACE}:`.length)];
      if (v === undefined || v === null) return undefined;
      return typeof v === "string" ? v : JSON.stringify(v);
    },
  };
}

/** The setting a configuration message names (`account-api:<key>: …`), or "" when none. */
const settingOf = (message: string): string => /^account-api:(\w+):/.exec(message)?.[1] ?? "";

export class NativeProvider implements pulumi.Provider {
  readonly version: string;
  private readonly env: NodeJS.ProcessEnv;
  private session: Session | undefined;
  private readonly log: ((message: string) => void) | undefined;
  /** The settings of the first Configure; every later one must repeat them (ReconfigureRefusedError). */
  private configured: Readonly<Record<string, string>> | undefined;

  constructor(options: NativeProviderOptions) {
    this.version = options.version;
    this.env = options.env ?? process.env;
    this.log = options.log;
  }

  async getSchema(): Promise<string> {
    return JSON.stringify(schema().providerSchema(this.version));
  }

  // ---- configuration ----

  /** Checks the provider's settings, each failure naming its setting; the environment fills gaps. */
  async checkConfig(_urn: string, _olds: unknown, news: unknown): Promise<pulumi.CheckResult> {
    const inputs = revealRecord(news);
    let problem: string | undefined;
    try {
      problem = configProblem(readProviderConfig(inputsReader(inputs), this.env), this.env);
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      problem = err.message;
    }
    const failures: CheckFailure[] = problem ? [{ property: settingOf(problem), reason: problem }] : [];
    // The provider's inputs are stored in state: the token only ever as a secret, however it was set.
    return { inputs: isRecord(news) ? markSecret(news, SECRET_KEYS) : news, failures };
  }

  /**
   * A changed setting updates the provider in place: its resources carry their own ids (and an
   * account where they name one), so nothing is replaced because the provider's endpoint moved.
   */
  async diffConfig(_urn: string, olds: unknown, news: unknown): Promise<DetailedDiffResult> {
    const before = revealRecord(olds);
    const after = revealRecord(news);
    const detailedDiff: Record<string, PropertyChange> = {};
    for (const k of CONFIG_KEYS) {
      if (deepEqual(before[k], after[k])) continue;
      detailedDiff[k] = before[k] === undefined ? "add" : after[k] === undefined ? "delete" : "update";
    }
    return { changes: Object.keys(detailedDiff).length > 0, replaces: [], detailedDiff };
  }

  /**
   * The engine's Configure: the stack's (or the provider resource's) settings, secrets decrypted.
   * Once only: a repeat with the same settings changes nothing, one with others is refused.
   */
  async configure(variables: Readonly<Record<string, string>>): Promise<void> {
    const settings = ownVariables(variables);
    if (this.configured) {
      const keys = [...new Set([...Object.keys(this.configured), ...Object.keys(settings)])].sort();
      const changed = keys.filter((k) => this.configured?.[k] !== settings[k]);
      if (changed.length) throw new ReconfigureRefusedError(changed);
      return;
    }
    this.configured = settings;
    const previous = this.session;
    this.session = openSession(variablesReader(variables), this.env, "pulumi-native-provider", this.log);
    await previous?.close();
  }

  private current(): Session {
    this.session ??= openSession(undefined, this.env, "pulumi-native-provider", this.log);
    return this.session;
  }

  // ---- resources ----

  async check(urn: string, olds: unknown, news: unknown): Promise<pulumi.CheckResult> {
    const kind = kindOfUrn(urn);
    const session = this.current();
    if (session.problem !== undefined)
      return { inputs: news, failures: [{ property: settingOf(session.problem), reason: session.problem }] };
    return this.run(kind, "check", async (handler, d) => {
      const given = isRecord(news) ? news : {};
      const stored =
        olds === undefined || !isRecord(olds) || Object.keys(olds).length === 0 ? undefined : olds;
      // The engine's URN, as the dynamic classes pass theirs: the seed of a kind's marker.
      const result = await handler.check(
        stored && revealRecord(stored),
        { ...revealRecord(given), [URN_INPUT]: urn },
        session.context,
      );
      const inputs = result.inputs ? protect(d, { ...result.inputs }, given, "inputs") : given;
      return { inputs, failures: result.failures ?? [] };
    });
  }

  async diff(id: string, urn: string, olds: unknown, news: unknown): Promise<DetailedDiffResult> {
    return this.run(kindOfUrn(urn), "diff", async (handler) => {
      const stored = revealRecord(olds);
      const next = revealRecord(news);
      const result = await handler.diff(id, stored, next, this.current().context);
      const replaces = result.replaces ?? [];
      const detailedDiff: Record<string, PropertyChange> = {};
      for (const k of handler.changedInputs?.(stored, next) ?? []) {
        const how = stored[k] === undefined ? "add" : next[k] === undefined ? "delete" : "update";
        detailedDiff[k] = replaces.includes(k) ? `${how}-replace` : how;
      }
      return {
        changes: result.changes,
        replaces,
        detailedDiff,
        ...(result.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      };
    });
  }

  async create(urn: string, inputs: unknown): Promise<pulumi.CreateResult> {
    const kind = kindOfUrn(urn);
    return this.run(kind, "create", async (handler, d) => {
      const given = isRecord(inputs) ? inputs : {};
      try {
        const result = await handler.create(revealRecord(given), this.current().context);
        return { id: result.id, outs: protect(d, { ...result.outs }, given, "outputs") };
      } catch (err) {
        // The engine records what was made (an initialization failure), so nothing is orphaned.
        if (!(err instanceof PartialCreateError) || !isRecord(err.properties)) throw err;
        throw new PartialCreateError(
          err.id,
          protect(d, { ...err.properties }, given, "outputs"),
          err.reasons,
        );
      }
    });
  }

  /**
   * Refresh hands the stored state; `pulumi import` only an id, which names what read needs to find
   * the object (import-ids.ts). An object gone answers an empty id.
   */
  async read(id: string, urn: string, props?: unknown, inputs?: unknown): Promise<pulumi.ReadResult> {
    const kind = kindOfUrn(urn);
    return this.run(kind, "read", async (handler, d) => {
      const stored = isRecord(props) ? props : {};
      const imported = Object.keys(stored).length === 0;
      const target = imported ? importTarget(kind, id) : { id, state: revealRecord(stored) };
      const result = await handler.read(target.id, target.state, this.current().context);
      if (!result) return { id: "", props: {} };
      const given = isRecord(inputs) ? inputs : {};
      return {
        id: result.id,
        props: protect(d, { ...result.props }, stored, "outputs"),
        inputs: protect(d, { ...result.inputs }, given, "inputs"),
      };
    });
  }

  async update(id: string, urn: string, olds: unknown, news: unknown): Promise<pulumi.UpdateResult> {
    return this.run(kindOfUrn(urn), "update", async (handler, d) => {
      const given = isRecord(news) ? news : {};
      const result = await handler.update(
        id,
        revealRecord(olds),
        revealRecord(given),
        this.current().context,
      );
      return { outs: protect(d, { ...result.outs }, given, "outputs") };
    });
  }

  async delete(id: string, urn: string, props: unknown): Promise<void> {
    await this.run(kindOfUrn(urn), "delete", (handler) =>
      handler.delete(id, revealRecord(props), this.current().context),
    );
  }

  // ---- functions ----

  /**
   * A function of the table that changes nothing remote. One that does is refused: an Invoke runs at
   * preview as at up, so it is offered as a run resource instead, which acts on `up` only.
   */
  async invoke(token: string, args: unknown): Promise<pulumi.InvokeResult> {
    const name = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
    const entry = functionTable().functionNamed(name);
    if (!entry) throw new Error(`${PACKAGE_NAME}: unknown function ${JSON.stringify(token)}`);
    if (entry.sideEffect)
      throw new Error(
        `${token} changes something remote, so it is not an invoke (a preview would run it too): use the resource ${TOKEN_PREFIX}${entry.sideEffect.instead}, which runs on up only`,
      );
    const session = this.current();
    if (session.problem !== undefined)
      return { failures: [{ property: settingOf(session.problem), reason: session.problem }] };
    const parsed = entry.params.safeParse(reveal(args));
    if (!parsed.success)
      return {
        failures: parsed.error.issues.map((i) => {
          const field =
            i.path.map(String).join(".") || (i.code === "unrecognized_keys" ? i.keys.join(", ") : "(args)");
          const rule = i.code === "unrecognized_keys" ? "is not a known field" : i.message;
          return { property: field.split(".")[0] ?? field, reason: `${name}: ${field}: ${rule}` };
        }),
      };
    try {
      const result = entry.result.parse(await entry.run(session.context.api, parsed.data));
      // A result that is not an object (a list) goes under the one key the generated SDKs read.
      return { outputs: schema().invokeOutputs(entry, result) };
    } catch (err) {
      throw describeFailure(name, "invoke", err, session.config.apiToken);
    }
  }

  // ---- shared ----

  /** Runs one resource operation; any failure names the kind and the operation, without the token. */
  private async run<T>(
    kind: ProviderKind,
    operation: string,
    fn: (handler: AnyHandler, description: HandlerDescription | undefined) => Promise<T>,
  ): Promise<T> {
    const session = this.current();
    try {
      if (session.problem !== undefined) throw new ConfigurationError(session.problem);
      const handler = handlerFor(kind);
      return await fn(handler, handler.description);
    } catch (err) {
      throw describeFailure(kind, operation, err, session.config.apiToken);
    } finally {
      // The engine kills the plugin rather than let it exit, when Node would write the cache: write
      // what this call loaded (the kind's handler, its area, undici) once it has answered.
      setImmediate(flushCompileCache).unref();
    }
  }
}

/**
 * Values answered to the engine, secret where the program's were (`given`), in the description's
 * secret fields (inputs; outputs too for `"outputs"`), and in the kind's secret leaves.
 */
function protect(
  d: HandlerDescription | undefined,
  values: Record<string, unknown>,
  given: Record<string, unknown>,
  what: "inputs" | "outputs",
): Record<string, unknown> {
  if (!d) return keepSecrets(values, given);
  const fields = what === "inputs" ? d.secretInputs : [...d.secretInputs, ...d.secretOutputs];
  return withSecretLeaves(d.kind, markSecret(keepSecrets(values, given), fields));
}
