/**
 * `account-api recover`: brings a stack back after the engine was killed in the middle of an `up`
 * (kill -9, a lost CI runner), so that the next `up` ends with the state equal to the remote truth.
 *
 * Pulumi's own steps (`pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`) are
 * enough while the program is unchanged: each pending create's object is adopted by the next `up`
 * through its resource's key (docs/reliability.md). This verb is for what no key can find: a program
 * that changed since the kill (a resource removed or renamed no longer declares the key its pending
 * create used), so it removes what every pending create made.
 *
 * 1. A `file://` backend: a 0-byte `<stack>.json.attrs` (left by the kill) is removed, and a
 *    checkpoint that is empty or not JSON is restored from `<stack>.json.bak` (the previous one).
 * 2. A stale lock is cleared (`pulumi cancel`).
 * 3. Each create the engine left pending is looked up through its resource's own lookup. An object
 *    that carries this create's marker (derived from its URN: a meeting's keyword, a rule's generated
 *    ref) was made by it and is removed with the resource's own delete, since the program may no
 *    longer declare that resource. An object found by its settings alone (every other kind, or a
 *    rule whose ref the program names) may as well be another team's: it is a candidate, removed only
 *    when the user says so (asked on a terminal, or `--yes`); one that a resource of the stack holds
 *    is never touched. A registration cannot be deleted: it is left to the next `up` to adopt.
 * 4. The pending creates are dropped (`pulumi refresh --clear-pending-creates`), unless a candidate
 *    is left undecided: they are kept then, so that a later run can still act on it.
 *
 * No step decrypts the state: the lookup reads only plain inputs of the exported checkpoint.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { createInterface } from "node:readline/promises";
import { promisify } from "node:util";
import { keyOfUrn } from "../provider/core/urn-key";
import { isRecord } from "../provider/core/values";
import { refFromKey } from "../provider/resources/config-rule/hooks";
import { markerFromKey } from "../provider/resources/meeting-template/hooks";
import { handlerFor } from "../provider/registry";
import { openSession } from "../provider/runtime";
import { RESOURCE_KINDS, type ResourceKind } from "../provider/types";
import { terminalText } from "../sdk/terminal-text";
import {
  EXIT,
  UsageError,
  action,
  checkFolderArg,
  leaf,
  progressFor,
  type CommonOptions,
  type VerbIo,
} from "./io";

/** What recovery needs of a stack: Pulumi's own commands, however they are run. */
export interface RecoverTarget {
  /** The `file://` backend's directory, when the stack lives in one. */
  backendDir?: string;
  /** `pulumi cancel --yes`; a stack that is not locked is not an error. */
  cancel(): Promise<void>;
  /** `pulumi stack export`: the checkpoint, secrets still encrypted. */
  exportState(): Promise<unknown>;
  /** `pulumi refresh --yes --clear-pending-creates`. */
  clearPendingCreates(): Promise<void>;
}

/** An object a pending create may have made, found by its settings, with no marker to prove it. */
export interface RecoverCandidate {
  kind: ResourceKind;
  id: string;
  /** The pending create's resource. */
  urn: string;
}

export interface RecoverReport {
  repairedFiles: string[];
  pendingCreates: number;
  /** Objects that interrupted creates left, removed (kind and id). */
  removed: string[];
  /** Candidates the user chose to keep, and registrations (which cannot be deleted). */
  kept: string[];
  /** Candidates left without a decision (no terminal, no --yes): nothing was done to them. */
  undecided: RecoverCandidate[];
  /** Pending creates whose object was not found (it was never made), or is a resource's of the stack. */
  notFound: number;
  /** Whether the pending creates were dropped (not while a candidate is undecided). */
  pendingCleared: boolean;
}

/**
 * How a candidate is decided: true removes it, false keeps it, undefined leaves it undecided (no one
 * to ask). The default asks no one.
 */
export type DecideCandidate = (c: RecoverCandidate) => Promise<boolean | undefined>;

/** A failure of one recovery step, naming it. */
export class RecoverError extends Error {
  constructor(step: string, cause: unknown) {
    super(`recover: ${step}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RecoverError";
  }
}

/** Step 1: the files a kill leaves broken in a `file://` backend. */
export function repairFileBackend(backendDir: string): string[] {
  const repaired: string[] = [];
  const stacks = join(backendDir, ".pulumi", "stacks");
  if (!existsSync(stacks)) return repaired;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  for (const file of walk(stacks)) {
    if (file.endsWith(".json.attrs") && statSync(file).size === 0) {
      unlinkSync(file);
      repaired.push(file);
    }
    if (file.endsWith(".json") && !validJson(file) && existsSync(`${file}.bak`)) {
      copyFileSync(`${file}.bak`, file);
      repaired.push(file);
    }
  }
  return repaired;
}

function validJson(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}

interface PendingCreate {
  kind: ResourceKind;
  urn: string;
  inputs: Record<string, unknown>;
}

const kindOfType = (type: string): ResourceKind | undefined =>
  RESOURCE_KINDS.find((k) => type.endsWith(`:${k}`));

/** The pending creates of our kinds in an exported checkpoint. */
export function pendingCreates(exported: unknown): PendingCreate[] {
  const deployment = isRecord(exported) ? exported.deployment : undefined;
  const ops =
    isRecord(deployment) && Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  return ops.flatMap((op: unknown): PendingCreate[] => {
    if (!isRecord(op) || op.type !== "creating" || !isRecord(op.resource)) return [];
    const kind = kindOfType(String(op.resource.type));
    if (!kind || !isRecord(op.resource.inputs)) return [];
    const { __provider: _provider, ...inputs } = op.resource.inputs;
    return [{ kind, urn: String(op.resource.urn), inputs }];
  });
}

const held = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** The objects the stack's resources hold (kind and id): never a pending create's leftover. */
export function heldByStack(exported: unknown): Set<string> {
  const deployment = isRecord(exported) ? exported.deployment : undefined;
  const resources = isRecord(deployment) && Array.isArray(deployment.resources) ? deployment.resources : [];
  return new Set(
    resources.flatMap((r: unknown) => {
      const kind = isRecord(r) ? kindOfType(String(r.type)) : undefined;
      return kind && isRecord(r) && typeof r.id === "string" && r.id ? [held(kind, r.id)] : [];
    }),
  );
}

const keywords = (ai: unknown): unknown[] =>
  isRecord(ai) && isRecord(ai.transcription) && Array.isArray(ai.transcription.keywords)
    ? ai.transcription.keywords
    : [];

/**
 * Kinds whose create writes a marker derived from the resource's URN (provider/core/urn-key.ts), and
 * whether these inputs carry this URN's: the object the look-up then finds holds it, so this create
 * made it. Any other kind is found by its settings, which another team's object may share.
 */
const CARRIES_MARKER: Partial<
  Record<ResourceKind, (inputs: Record<string, unknown>, urn: string) => boolean>
> = {
  MeetingTemplate: (i, urn) => keywords(i.aiConfig).includes(markerFromKey(keyOfUrn(urn))),
  ConfigRule: (i, urn) => i.ref === refFromKey(keyOfUrn(urn)),
};

export function carriesMarker(p: PendingCreate): boolean {
  return CARRIES_MARKER[p.kind]?.(p.inputs, p.urn) ?? false;
}

/** Kinds whose objects the API cannot delete: the next `up` adopts them by their natural key. */
const UNDELETABLE: readonly ResourceKind[] = ["DomainRegistration"];

/** Runs the recovery; the provider's configuration comes from the environment (ACCOUNT_API_*). */
export async function recover(
  target: RecoverTarget,
  env: NodeJS.ProcessEnv = process.env,
  decide: DecideCandidate = async () => undefined,
): Promise<RecoverReport> {
  const repairedFiles = target.backendDir ? repairFileBackend(target.backendDir) : [];
  try {
    await target.cancel();
  } catch {
    // Not locked: nothing to cancel.
  }
  let exported: unknown;
  try {
    exported = await target.exportState();
  } catch (err) {
    throw new RecoverError("reading the checkpoint (pulumi stack export)", err);
  }
  const pending = pendingCreates(exported);
  const stackHolds = heldByStack(exported);
  const session = openSession(undefined, env);
  const report: RecoverReport = {
    repairedFiles,
    pendingCreates: pending.length,
    removed: [],
    kept: [],
    undecided: [],
    notFound: 0,
    pendingCleared: false,
  };
  try {
    for (const p of pending) {
      const handler = handlerFor(p.kind);
      const id = await handler.find?.(p.inputs, session.context);
      if (id === undefined || stackHolds.has(held(p.kind, id))) {
        report.notFound++;
        continue;
      }
      const what = `${p.kind} ${id}`;
      if (UNDELETABLE.includes(p.kind)) {
        report.kept.push(what);
        continue;
      }
      const remove = carriesMarker(p) || (await decide({ kind: p.kind, id, urn: p.urn }));
      if (remove === undefined) report.undecided.push({ kind: p.kind, id, urn: p.urn });
      else if (!remove) report.kept.push(what);
      else {
        await handler.delete(id, p.inputs, session.context);
        report.removed.push(what);
      }
    }
  } catch (err) {
    throw new RecoverError("removing what interrupted creates left", err);
  } finally {
    await session.close();
  }
  if (pending.length > 0 && report.undecided.length === 0) {
    try {
      await target.clearPendingCreates();
    } catch (err) {
      throw new RecoverError("dropping the pending creates (pulumi refresh --clear-pending-creates)", err);
    }
    report.pendingCleared = true;
  }
  return report;
}

const run = promisify(execFile);

/** The target for the command line: the `pulumi` on PATH, in `cwd`, on `stack`. */
export function cliTarget(stack: string, cwd: string, env: NodeJS.ProcessEnv = process.env): RecoverTarget {
  const pulumi = async (...args: string[]): Promise<string> =>
    (
      await run("pulumi", [...args, "--stack", stack, "--non-interactive"], {
        cwd,
        env,
        maxBuffer: 256 << 20,
      })
    ).stdout;
  const url = env.PULUMI_BACKEND_URL;
  return {
    ...(url?.startsWith("file://") ? { backendDir: url.slice("file://".length) } : {}),
    cancel: async () => void (await pulumi("cancel", "--yes")),
    exportState: async () => JSON.parse(await pulumi("stack", "export")),
    clearPendingCreates: async () =>
      void (await pulumi("refresh", "--yes", "--skip-preview", "--clear-pending-creates")),
  };
}

/** Asks the user one question on the terminal and hands back the answer. */
export type Ask = (question: string) => Promise<string>;

/** What the verb runs against: the `pulumi` on PATH, and the terminal when there is one. */
export interface RecoverDeps {
  target?: (stack: string, cwd: string, env: NodeJS.ProcessEnv) => RecoverTarget;
  /** Undefined where no one can answer (stdin or stderr is not a terminal). */
  ask?: Ask;
}

/** A question on stderr, the answer from stdin: only when both are a terminal. */
function terminalAsk(io: VerbIo): Ask | undefined {
  if (!process.stdin.isTTY || !(io.isTTY ?? process.stderr.isTTY === true)) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

function decideWith(yes: boolean | undefined, ask: Ask | undefined): DecideCandidate {
  if (yes) return async () => true;
  if (!ask) return async () => undefined;
  return async (c) => {
    const answer = await ask(
      `${terminalText(c.kind)} ${terminalText(c.id)} has the settings of the pending create of ${terminalText(c.urn)}, ` +
        "but nothing marks it as made by it (it may be another's). Delete it? [y/N] ",
    );
    return /^y(es)?$/i.test(answer.trim());
  };
}

/** The human report; every name and id from the account or the state shown escaped. */
export function recoverText(stack: string, r: RecoverReport): string {
  const lines = [
    `recovered ${terminalText(stack)}: ${r.repairedFiles.length} backend file(s) repaired, ` +
      `${r.pendingCreates} pending create(s), ${r.removed.length} object(s) removed, ${r.notFound} never made`,
    ...r.removed.map((w) => `removed ${terminalText(w)}`),
    ...r.kept.map((w) => `kept ${terminalText(w)}`),
    ...r.undecided.map(
      (c) =>
        `not removed: ${terminalText(c.kind)} ${terminalText(c.id)} has the settings of the pending create of ${terminalText(c.urn)}, but nothing marks it as made by it`,
    ),
  ];
  if (r.undecided.length > 0)
    lines.push(
      "next: run `account-api recover` again on a terminal to be asked, or with --yes to remove these; to keep them, `pulumi refresh --clear-pending-creates` (the pending creates were kept)",
    );
  else lines.push("next: `pulumi up` (it adopts what is ours and makes what is missing)");
  return `${lines.join("\n")}\n`;
}

/** `account-api recover --stack S [--cwd DIR] [--yes]`: the documented recovery after an interrupted `up`. */
export function addRecoverVerb(root: Command, io: VerbIo, deps: RecoverDeps = {}): void {
  leaf(
    root
      .command("recover")
      .description(
        "after an up was killed: repair a file backend's checkpoint, clear the stale lock, remove what pending creates made (an object found by its settings alone only when confirmed) and drop them; then run `pulumi up` again (exit 3: a candidate was left undecided)",
      )
      .option("--stack <name>", "the stack (default: $PULUMI_STACK)")
      .option("--cwd <dir>", "the Pulumi project's folder (default: the current one)")
      .option(
        "--yes",
        "also remove objects found by their settings alone, with no marker of the pending create (asked on a terminal otherwise)",
      ),
  ).action(
    action(io, async (o: CommonOptions & { stack?: string; cwd?: string; yes?: boolean }) => {
      const stack = o.stack ?? io.env.PULUMI_STACK;
      if (!stack) throw new UsageError("--stack: required (or set PULUMI_STACK)");
      if (o.cwd !== undefined) checkFolderArg("--cwd", o.cwd);
      progressFor(io, o)(`recovering stack ${stack}…`);
      const target = (deps.target ?? cliTarget)(stack, resolve(o.cwd ?? process.cwd()), io.env);
      const ask = "ask" in deps ? deps.ask : terminalAsk(io);
      const report = await recover(target, io.env, decideWith(o.yes, ask));
      return {
        result: report,
        text: recoverText(stack, report),
        exitCode: report.undecided.length > 0 ? EXIT.unsuccessful : EXIT.ok,
      };
    }),
  );
}
