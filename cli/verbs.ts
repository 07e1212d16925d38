/**
 * Imperative verbs for CI and scripts, on the sdk. Configuration comes from the environment
 * (ACCOUNT_API_BASE_URL, ACCOUNT_API_ACCOUNT_ID, ACCOUNT_API_TOKEN) or --base-url/--account-id; the
 * token is never a flag, so it does not show in process listings or shell history. Results are JSON
 * on stdout; progress goes to stderr.
 */
import { Command, InvalidArgumentError } from "commander";
import { readFile } from "node:fs/promises";
import { detectDrift } from "../provider/drift";
import { openSession } from "../provider/runtime";
import { AccountApi } from "../sdk";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

interface GlobalOptions {
  baseUrl?: string;
  accountId?: string;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export interface VerbIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Reads standard input (the drift verb's default source). */
  stdin?: () => Promise<string>;
  /** Sets the process's exit code (the drift verb exits 2 on drift). */
  setExitCode?: (code: number) => void;
}

/** Builds a client from the command's global options, runs `body`, prints its JSON, closes. */
function action<A extends unknown[]>(
  io: VerbIo,
  root: Command,
  body: (api: AccountApi, ...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const g = root.opts<GlobalOptions>();
    const api = new AccountApi({
      ...(g.baseUrl ? { baseUrl: g.baseUrl } : {}),
      ...(g.accountId ? { accountId: g.accountId } : {}),
      env: io.env,
    });
    try {
      const result = await body(api, ...args);
      io.out(`${JSON.stringify(result, null, 2)}\n`);
    } finally {
      await api.close();
    }
  };
}

export function addVerbs(root: Command, io: VerbIo): void {
  root
    .option("--base-url <url>", "API root ending in /client/v4 (default: ACCOUNT_API_BASE_URL)")
    .option("--account-id <id>", "account id (default: ACCOUNT_API_ACCOUNT_ID)");
  const progress = (what: string) => (state: unknown) => io.err(`${what}: ${JSON.stringify(state)}\n`);

  const build = root
    .command("build")
    .description("build service: trigger, wait, logs, cancel, redeploy, purge");
  build
    .command("trigger <triggerUuid>")
    .description("start a build (rule 1: --branch, --commit, or both)")
    .option("--branch <name>")
    .option("--commit <hash>")
    .option("--wait", "wait until the build stops")
    .option("--deadline <ms>", "longest wait", positiveInt, 30 * 60_000)
    .action(
      action(
        io,
        root,
        async (
          api,
          triggerUuid: string,
          o: { branch?: string; commit?: string; wait?: boolean; deadline: number },
        ) => {
          const started = await api.builds.triggerBuild(triggerUuid, {
            ...(o.branch ? { branch: o.branch } : {}),
            ...(o.commit ? { commitHash: o.commit } : {}),
          });
          if (!o.wait) return started;
          return api.builds.waitForBuild(started.build_uuid, {
            deadlineMs: o.deadline,
            onProgress: progress("build"),
          });
        },
      ),
    );
  build
    .command("wait <buildUuid>")
    .option("--deadline <ms>", "longest wait", positiveInt, 30 * 60_000)
    .action(
      action(io, root, (api, buildUuid: string, o: { deadline: number }) =>
        api.builds.waitForBuild(buildUuid, { deadlineMs: o.deadline, onProgress: progress("build") }),
      ),
    );
  build
    .command("logs <buildUuid>")
    .action(action(io, root, (api, buildUuid: string) => api.builds.collectLogs(buildUuid)));
  build
    .command("cancel <buildUuid>")
    .action(action(io, root, (api, buildUuid: string) => api.builds.cancelBuild(buildUuid)));
  build
    .command("redeploy <scriptName>")
    .description("rebuild the branch and commit behind the script's active deployment")
    .action(action(io, root, (api, scriptName: string) => api.builds.redeployActiveDeployment(scriptName)));
  build.command("purge-cache <triggerUuid>").action(
    action(io, root, async (api, triggerUuid: string) => {
      await api.builds.purgeBuildCache(triggerUuid);
      return { purged: triggerUuid };
    }),
  );

  const domain = root.command("domain").description("registrar: check and search");
  domain
    .command("check <domains...>")
    .description("authoritative availability and price")
    .action(action(io, root, (api, domains: string[]) => api.registrar.check({ domains })));
  domain
    .command("search <query>")
    .description("advisory suggestions")
    .option("--limit <n>", "at most this many", positiveInt)
    .action(
      action(io, root, (api, q: string, o: { limit?: number }) =>
        api.registrar.search({ q, ...(o.limit ? { limit: o.limit } : {}) }),
      ),
    );

  root
    .command("drift")
    .description(
      "compare an exported stack (pulumi stack export --show-secrets) with the live API; exit 2 on drift",
    )
    .option("--file <path>", "the export (default: standard input)")
    .action(async (o: { file?: string }) => {
      const g = root.opts<GlobalOptions>();
      const text = o.file ? await readFile(o.file, "utf8") : await (io.stdin ?? readStdin)();
      const session = openSession(
        {
          get: (key) =>
            key === "account-api:baseUrl"
              ? g.baseUrl
              : key === "account-api:accountId"
                ? g.accountId
                : undefined,
        },
        io.env,
      );
      try {
        const reports = await detectDrift(JSON.parse(text) as unknown, session.context);
        io.out(`${JSON.stringify(reports, null, 2)}\n`);
        const drifted = reports.filter((r) => r.status !== "in-sync");
        for (const r of drifted)
          io.err(
            `drift: ${r.kind} ${r.id}: ${r.status}${r.changed.length ? ` (${r.changed.join(", ")})` : ""}\n`,
          );
        if (drifted.length) (io.setExitCode ?? ((c: number) => (process.exitCode = c)))(2);
      } finally {
        await session.close();
      }
    });

  const sync = root.command("sync").description("search instances: sync jobs");
  sync
    .command("start <instanceId>")
    .option("--namespace <name>")
    .option("--wait", "wait until the job ends")
    .option("--deadline <ms>", "longest wait", positiveInt, 30 * 60_000)
    .action(
      action(
        io,
        root,
        async (api, id: string, o: { namespace?: string; wait?: boolean; deadline: number }) => {
          const ns = o.namespace ? { namespace: o.namespace } : {};
          const job = await api.search.createJob({ id, ...ns });
          if (!o.wait) return job;
          return api.search.waitForJob(id, job.id, {
            ...ns,
            deadlineMs: o.deadline,
            onProgress: progress("job"),
          });
        },
      ),
    );
}
