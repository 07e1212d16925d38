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
 * 3. Each create the engine left pending is looked up through its resource's own lookup (natural key,
 *    or the marker it wrote: a meeting's keyword, a rule's ref); what it made is removed with the
 *    resource's own delete, since the program may no longer declare that resource. Kinds whose
 *    objects cannot be deleted (a domain registration) are adopted by the next `up` through their
 *    natural key instead.
 * 4. The pending creates are dropped (`pulumi refresh --clear-pending-creates`).
 *
 * No step decrypts the state: the lookup reads only plain inputs of the exported checkpoint.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { promisify } from "node:util";
import { isRecord } from "../provider/core/values";
import { handlerFor } from "../provider/registry";
import { openSession } from "../provider/runtime";
import { RESOURCE_KINDS, type ResourceKind } from "../provider/types";
import { UsageError, action, checkFolderArg, leaf, progressFor, type CommonOptions, type VerbIo } from "./io";

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

export interface RecoverReport {
  repairedFiles: string[];
  pendingCreates: number;
  /** Objects that interrupted creates left, removed (kind and id). */
  removed: string[];
  /** Pending creates whose object was not found (it was never made), or is adopted by the next up. */
  notFound: number;
}

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

/** The pending creates of our kinds in an exported checkpoint. */
export function pendingCreates(exported: unknown): PendingCreate[] {
  const deployment = isRecord(exported) ? exported.deployment : undefined;
  const ops =
    isRecord(deployment) && Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  return ops.flatMap((op: unknown): PendingCreate[] => {
    if (!isRecord(op) || op.type !== "creating" || !isRecord(op.resource)) return [];
    const type = String(op.resource.type);
    const kind = RESOURCE_KINDS.find((k) => type.endsWith(`:${k}`));
    if (!kind || !isRecord(op.resource.inputs)) return [];
    const { __provider: _provider, ...inputs } = op.resource.inputs;
    return [{ kind, urn: String(op.resource.urn), inputs }];
  });
}

/** Runs the recovery; the provider's configuration comes from the environment (ACCOUNT_API_*). */
export async function recover(
  target: RecoverTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RecoverReport> {
  const repairedFiles = target.backendDir ? repairFileBackend(target.backendDir) : [];
  try {
    await target.cancel();
  } catch {
    // Not locked: nothing to cancel.
  }
  let pending: PendingCreate[];
  try {
    pending = pendingCreates(await target.exportState());
  } catch (err) {
    throw new RecoverError("reading the checkpoint (pulumi stack export)", err);
  }
  const session = openSession(undefined, env);
  const removed: string[] = [];
  let notFound = 0;
  try {
    for (const p of pending) {
      const handler = handlerFor(p.kind);
      const id = await handler.find?.(p.inputs, session.context);
      if (id === undefined) {
        notFound++;
        continue;
      }
      await handler.delete(id, p.inputs, session.context);
      removed.push(`${p.kind} ${id}`);
    }
  } catch (err) {
    throw new RecoverError("removing what interrupted creates left", err);
  } finally {
    await session.close();
  }
  if (pending.length > 0) {
    try {
      await target.clearPendingCreates();
    } catch (err) {
      throw new RecoverError("dropping the pending creates (pulumi refresh --clear-pending-creates)", err);
    }
  }
  return { repairedFiles, pendingCreates: pending.length, removed, notFound };
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

/** `account-api recover --stack S [--cwd DIR]`: the documented recovery after an interrupted `up`. */
export function addRecoverVerb(root: Command, io: VerbIo): void {
  leaf(
    root
      .command("recover")
      .description(
        "after an up was killed: repair a file backend's checkpoint, clear the stale lock, remove what pending creates left and drop them; then run `pulumi up` again",
      )
      .option("--stack <name>", "the stack (default: $PULUMI_STACK)")
      .option("--cwd <dir>", "the Pulumi project's folder (default: the current one)"),
  ).action(
    action(io, async (o: CommonOptions & { stack?: string; cwd?: string }) => {
      const stack = o.stack ?? io.env.PULUMI_STACK;
      if (!stack) throw new UsageError("--stack: required (or set PULUMI_STACK)");
      if (o.cwd !== undefined) checkFolderArg("--cwd", o.cwd);
      progressFor(io, o)(`recovering stack ${stack}…`);
      const report = await recover(cliTarget(stack, resolve(o.cwd ?? process.cwd()), io.env), io.env);
      const text =
        `recovered ${stack}: ${report.repairedFiles.length} backend file(s) repaired, ` +
        `${report.pendingCreates} pending create(s), ${report.removed.length} object(s) removed, ${report.notFound} never made\n` +
        "next: `pulumi up` (it adopts what is ours and makes what is missing)\n";
      return { result: report, text };
    }),
  );
}
