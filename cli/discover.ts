/**
 * `account-api discover`: every object of the eight kinds in the account, each with whether a stack
 * manages it (compared by the id a stack's state holds, the stack read as `drift` reads it), the kinds
 * that could not be listed, and on request a program that adopts the unmanaged ones and Pulumi's bulk
 * import file. The listing is drift's (`--unmanaged`): provider/discovery/list.ts.
 */
import { lstatSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { DEFAULT_WAITS, type HandlerContext, type ResourceKind } from "../provider/types";
import { KeyedQueue } from "../provider/keyed-queue";
import { displayType, managedKind, stackApps } from "../provider/drift";
import {
  ZoneNotFoundError,
  discoverAccount,
  type DiscoveredObject,
  type ListingGap,
} from "../provider/discovery/list";
import { adoptions as readAdoptions, type Adoption } from "../provider/discovery/adopt";
import {
  PROGRAM_LANGUAGES,
  importFile,
  programFiles,
  projectNameProblem,
  type ProgramLanguage,
} from "../provider/discovery/program";
import { UnsafeWriteError, writeNewFile } from "../sdk/safe-files";
import { terminalText } from "../sdk/terminal-text";
import { isRecord } from "../provider/core/values";
import type { AccountApi } from "../sdk/account-api";
import { selectUserStack } from "./drift";
import {
  UsageError,
  action,
  checkFolderArg,
  collect,
  leaf,
  progressFor,
  withClient,
  type CommonOptions,
  type Progress,
  type VerbIo,
} from "./io";

/** The version of the `--json` shape (docs/cli.md#discover); raised on any incompatible change. */
export const DISCOVER_SCHEMA_VERSION = 1;

export interface DiscoverOptions extends CommonOptions {
  zone?: string[];
  app?: string[];
  stack?: string;
  cwd?: string;
  writeProgram?: string;
  language?: string;
  importFile?: string;
  project?: string;
  force?: boolean;
}

/** An object as `--json` shows it: its live settings are left out (they are the written program's inputs). */
export interface DiscoveredEntry extends Omit<DiscoveredObject, "settings"> {
  /** Whether the stack manages it; null without `--stack`. */
  readonly managed: boolean | null;
}

export interface KindCount {
  readonly total: number;
  readonly managed: number;
}

export interface DiscoverResult {
  readonly schemaVersion: typeof DISCOVER_SCHEMA_VERSION;
  readonly stack: string | null;
  readonly objects: readonly DiscoveredEntry[];
  /** Kinds that could not be listed, each with why (their counts are of what was listed). */
  readonly gaps: readonly ListingGap[];
  readonly counts: {
    readonly total: number;
    readonly managed: number;
    readonly unmanaged: number;
    readonly byKind: Partial<Record<ResourceKind, KindCount>>;
  };
  /** What `--write-program` and `--import-file` wrote. */
  readonly written?: {
    readonly program?: string;
    readonly language?: ProgramLanguage;
    readonly importFile?: string;
    readonly resources: number;
    /** Configuration keys the program reads, each a secret the API never returns. */
    readonly placeholders: readonly { key: string; about: string }[];
  };
}

interface StackView {
  readonly stack: string;
  /** `Kind resourceId` of each of the stack's resources of our kinds (dynamic or native). */
  readonly ids: ReadonlySet<string>;
  /** The realtime apps its MeetingTemplates live in: walked besides those `--app` names, as drift does. */
  readonly apps: readonly string[];
}

const managedKey = (kind: string, resourceId: string): string => `${kind} ${resourceId}`;

async function readStack(io: VerbIo, o: DiscoverOptions): Promise<StackView> {
  const stack = await selectUserStack(io, o);
  const deployment = await stack.exportStack();
  const ids = new Set<string>();
  const states: { type: string; inputs?: Record<string, unknown> }[] = [];
  const resources: unknown = Reflect.get(deployment.deployment ?? {}, "resources");
  for (const r of Array.isArray(resources) ? resources : []) {
    const type: unknown = Reflect.get(r, "type");
    const id: unknown = Reflect.get(r, "id");
    const inputs: unknown = Reflect.get(r, "inputs");
    if (typeof type !== "string") continue;
    const kind = managedKind(displayType(type));
    if (kind === undefined) continue;
    if (typeof id === "string" && id) ids.add(managedKey(kind, id));
    states.push({ type: displayType(type), ...(isRecord(inputs) ? { inputs } : {}) });
  }
  return { stack: stack.name, ids, apps: stackApps(states) };
}

function counts(objects: readonly DiscoveredEntry[]): DiscoverResult["counts"] {
  const byKind: Partial<Record<ResourceKind, KindCount>> = {};
  for (const o of objects) {
    const c = byKind[o.kind] ?? { total: 0, managed: 0 };
    byKind[o.kind] = { total: c.total + 1, managed: c.managed + (o.managed ? 1 : 0) };
  }
  const managed = objects.filter((o) => o.managed).length;
  return { total: objects.length, managed, unmanaged: objects.length - managed, byKind };
}

/** A handler context over the command's client: what the native provider's read gets. */
function readContext(api: AccountApi, progress: Progress): HandlerContext {
  const queue = new KeyedQueue();
  return {
    api,
    accountId: (override) => api.client.account(override),
    log: progress,
    serialize: (key, fn) => queue.run(key, fn),
    waits: DEFAULT_WAITS,
  };
}

/** The files each language's program has (programFiles writes exactly these). */
const PROGRAM_FILES: Record<ProgramLanguage, readonly string[]> = {
  typescript: ["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"],
  yaml: ["Pulumi.yaml", "Main.yaml"],
};

/** Files that would change what the program is: pulumi-yaml reads Main.json before Main.yaml. */
const SHADOWING: Record<ProgramLanguage, readonly string[]> = { typescript: [], yaml: ["Main.json"] };

/** A file the command writes, with the option that named it (for messages). */
interface Target {
  readonly option: "--write-program" | "--import-file";
  readonly path: string;
}

/** The nearest existing folder at or above `path` must be a folder: the program's folder is made in it. */
function checkFolderToMake(option: string, path: string): void {
  for (let p = resolve(path); ; p = dirname(p)) {
    let st;
    try {
      st = statSync(p, { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR: a file above it; its own parent says which
    }
    if (st === undefined) {
      if (p === dirname(p)) return;
      continue;
    }
    if (st.isDirectory()) return;
    throw new UsageError(
      p === resolve(path)
        ? `${option} ${path}: is a file, not a folder`
        : `${option} ${path}: ${p} is a file, so no folder can be made under it`,
    );
  }
}

/** The project name: --project, else the folder's name made valid (Pulumi's rule, program.ts). */
function projectName(o: DiscoverOptions, dir: string): string {
  if (o.project !== undefined) return o.project;
  return (
    basename(dir)
      .replace(/[^A-Za-z0-9_.-]/g, "-")
      .slice(0, 100) || "adopted"
  );
}

function targets(o: DiscoverOptions, language: ProgramLanguage): Target[] {
  const out: Target[] = [];
  if (o.writeProgram !== undefined)
    for (const file of PROGRAM_FILES[language])
      out.push({ option: "--write-program", path: join(resolve(o.writeProgram), file) });
  if (o.importFile !== undefined) {
    const path = resolve(o.importFile);
    const clash = out.find((t) => t.path === path);
    if (clash)
      throw new UsageError(`--import-file ${o.importFile}: is a file of the program --write-program writes`);
    out.push({ option: "--import-file", path });
  }
  return out;
}

/**
 * Every file to write, checked before any is written: a link is never written through (not even with
 * --force), something other than a file is never replaced, and an existing file only with --force.
 * All refusals in one message, so that a refusal leaves nothing half-written.
 */
function checkTargets(all: readonly Target[], force: boolean, shadowing: readonly string[] = []): void {
  const problems: string[] = [];
  for (const path of shadowing)
    if (lstatSync(path, { throwIfNoEntry: false }))
      problems.push(`--write-program: ${path} exists and would be read instead of the program written`);
  const existing: Target[] = [];
  for (const t of all) {
    const st = lstatSync(t.path, { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (st.isSymbolicLink())
      problems.push(`${t.option}: ${t.path} is a symbolic link; refusing to write through it`);
    else if (!st.isFile()) problems.push(`${t.option}: ${t.path} exists and is not a file`);
    else if (!force) existing.push(t);
  }
  if (existing.length)
    problems.push(
      `${existing.map((t) => `${t.option}: ${t.path}`).join(", ")} already ${existing.length > 1 ? "exist" : "exists"}; refusing to overwrite (--force replaces ${existing.length > 1 ? "them" : "it"})`,
    );
  if (problems.length) throw new UsageError(problems.join("; "));
}

const shadowingFiles = (o: DiscoverOptions, language: ProgramLanguage): string[] =>
  o.writeProgram === undefined ? [] : SHADOWING[language].map((f) => join(resolve(o.writeProgram!), f));

function checkOptions(o: DiscoverOptions): ProgramLanguage {
  if (o.cwd !== undefined) checkFolderArg("--cwd", o.cwd);
  const language = o.language ?? "typescript";
  const known = PROGRAM_LANGUAGES.find((l) => l === language);
  if (!known)
    throw new UsageError(
      `--language ${language}: must be one of ${PROGRAM_LANGUAGES.join(", ")} (for Python or Go, write --import-file and run \`pulumi import --file\`, which writes the code in the project's language)`,
    );
  if (o.language !== undefined && o.writeProgram === undefined)
    throw new UsageError("--language: only with --write-program");
  if (o.project !== undefined && o.writeProgram === undefined)
    throw new UsageError("--project: only with --write-program");
  if (o.writeProgram !== undefined) {
    checkFolderToMake("--write-program", o.writeProgram);
    const project = projectName(o, resolve(o.writeProgram));
    const problem = projectNameProblem(project);
    if (problem !== undefined)
      throw new UsageError(
        `${o.project !== undefined ? "--project" : `--write-program ${o.writeProgram}: the folder's name as the project name`} "${project}": ${problem}`,
      );
  }
  if (o.importFile !== undefined) {
    const path = resolve(o.importFile);
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--import-file ${o.importFile}: is a folder, not a file`);
    const folder = dirname(path);
    let isFolder = false;
    try {
      isFolder = statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      // ENOTDIR: a file above it.
    }
    if (!isFolder) throw new UsageError(`--import-file ${o.importFile}: its folder ${folder} does not exist`);
  }
  checkTargets(targets(o, known), o.force === true, shadowingFiles(o, known));
  return known;
}

/**
 * Writes the program and the import file: every text made first (a value the language cannot hold
 * stops it before any file is written), the files checked again, then each created without following
 * a link (sdk/safe-files.ts), replacing an existing one only with --force.
 */
function write(
  o: DiscoverOptions,
  language: ProgramLanguage,
  adopted: readonly Adoption[],
): DiscoverResult["written"] {
  const placeholders = adopted.flatMap((a) => a.placeholders.map((p) => ({ key: p.key, about: p.about })));
  const texts = new Map<string, string>();
  if (o.writeProgram !== undefined) {
    const dir = resolve(o.writeProgram);
    for (const [file, text] of Object.entries(programFiles(language, projectName(o, dir), adopted)))
      texts.set(join(dir, file), text);
  }
  if (o.importFile !== undefined) texts.set(resolve(o.importFile), importFile(adopted));
  const all = targets(o, language);
  checkTargets(all, o.force === true, shadowingFiles(o, language));
  if (o.writeProgram !== undefined) mkdirSync(resolve(o.writeProgram), { recursive: true });
  try {
    for (const t of all) writeNewFile(t.path, texts.get(t.path) ?? "", { replace: o.force === true });
  } catch (err) {
    // Something appeared between the check and the write.
    if (err instanceof UnsafeWriteError) throw new UsageError(err.message);
    throw err;
  }
  return {
    ...(o.writeProgram !== undefined ? { program: resolve(o.writeProgram), language } : {}),
    ...(o.importFile !== undefined ? { importFile: resolve(o.importFile) } : {}),
    resources: adopted.length,
    placeholders,
  };
}

function renderText(r: DiscoverResult): string {
  const lines = r.objects.map((o) => {
    const status = o.managed === null ? "" : o.managed ? "managed    " : "unmanaged  ";
    const name = o.name ? `  (${terminalText(o.name)})` : "";
    return `${status}${o.kind} ${terminalText(o.resourceId)}${name}`;
  });
  for (const g of r.gaps) lines.push(`not listed: ${g.kind}: ${terminalText(g.reason)}`);
  const c = r.counts;
  lines.push(
    r.stack === null
      ? `${c.total} objects`
      : `${c.total} objects: ${c.managed} managed by stack ${terminalText(r.stack)}, ${c.unmanaged} unmanaged`,
  );
  const w = r.written;
  if (w?.program) lines.push(`wrote a ${w.language} program adopting ${w.resources} objects in ${w.program}`);
  if (w?.importFile) lines.push(`wrote the import file ${w.importFile} (pulumi import --file)`);
  for (const p of w?.placeholders ?? [])
    lines.push(`set before up: pulumi config set --secret ${p.key} <value>  # ${terminalText(p.about)}`);
  return `${lines.join("\n")}\n`;
}

export function addDiscoverVerb(root: Command, io: VerbIo): void {
  leaf(
    root
      .command("discover")
      .description("every object of the eight kinds in the account, and whether a stack manages it")
      .option("--zone <zone>", "a zone (id or name) to look in (repeatable; default: every zone)", collect)
      .option(
        "--app <appId>",
        "only this meetings app (repeatable; default: every app; with --stack, its apps too)",
        collect,
      )
      .option("--stack <name>", "compare with this stack's resources (by id)")
      .option("--cwd <dir>", "the stack's Pulumi project folder (default: the current one)")
      .option("--write-program <dir>", "write a program adopting every unmanaged object into this folder")
      .option(
        "--language <language>",
        `the program's language: ${PROGRAM_LANGUAGES.join(" or ")} (default typescript)`,
      )
      .option("--import-file <file>", "write Pulumi's bulk import file of the unmanaged objects")
      .option(
        "--project <name>",
        "the written program's project name: letters, digits, _ . - (default: the folder's name)",
      )
      .option("--force", "replace files --write-program and --import-file would write that exist already"),
  ).action(
    action(io, async (o: DiscoverOptions) => {
      const language = checkOptions(o);
      const progress = progressFor(io, o);
      const view = o.stack !== undefined ? await readStack(io, o) : undefined;
      return withClient(io, o, async (api) => {
        progress("listing the account…");
        // `--app` filters the apps walked (the stack's own stay in); without it, every app is.
        const apps = o.app?.length ? { apps: [...new Set([...o.app, ...(view?.apps ?? [])])] } : {};
        const listing = await discoverAccount(api, { ...(o.zone ? { zones: o.zone } : {}), ...apps }).catch(
          (err: unknown) => {
            // A zone the user named that the account does not have: bad input, named by its option.
            if (err instanceof ZoneNotFoundError) throw new UsageError(`--zone ${err.zone}: ${err.reason}`);
            throw err;
          },
        );
        const isManaged = (f: Pick<DiscoveredObject, "kind" | "resourceId">): boolean =>
          view?.ids.has(managedKey(f.kind, f.resourceId)) ?? false;
        const objects: DiscoveredEntry[] = listing.objects.map(({ settings: _settings, ...f }) => ({
          ...f,
          managed: view ? isManaged(f) : null,
        }));
        let written: DiscoverResult["written"];
        if (o.writeProgram !== undefined || o.importFile !== undefined) {
          progress("reading each unmanaged object…");
          const unmanaged = listing.objects.filter((f) => !isManaged(f));
          written = write(o, language, await readAdoptions(unmanaged, readContext(api, progress)));
        }
        const result: DiscoverResult = {
          schemaVersion: DISCOVER_SCHEMA_VERSION,
          stack: view?.stack ?? null,
          objects,
          gaps: listing.gaps,
          counts: counts(objects),
          ...(written ? { written } : {}),
        };
        return { result, text: renderText(result) };
      });
    }),
  );
}
