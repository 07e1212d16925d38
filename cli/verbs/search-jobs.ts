/** Search instances' sync jobs: run, wait, logs. */
import type { Command } from "commander";
import type { AccountApi } from "../../sdk";
import type { SearchJob } from "../../sdk/schemas/search";
import { EXIT, action, leaf, lookingFor, progressFor, withClient, type Outcome, type VerbIo } from "../io";
import { withDeadline, type WaitOpts } from "./shared";

interface JobOpts extends WaitOpts {
  namespace?: string;
}

const jobLine = (j: SearchJob): string =>
  `job ${j.id}: ${j.ended_at ? `ended (${j.end_reason ?? "no reason given"})` : "running"}\n`;

/** A job that ended other than by completing is exit 3. */
function jobOutcome(j: SearchJob): Outcome<SearchJob> {
  const failed =
    Boolean(j.ended_at) &&
    j.end_reason !== null &&
    j.end_reason !== undefined &&
    !/^(completed?|success|done)$/i.test(j.end_reason);
  return { result: j, text: jobLine(j), exitCode: failed ? EXIT.unsuccessful : EXIT.ok };
}

/** How a verb names a search instance, with its namespace when one was given. */
const instanceName = (id: string, o: JobOpts): string =>
  `search instance ${id}${o.namespace ? ` (namespace ${o.namespace})` : ""}`;

function waitJob(io: VerbIo, api: AccountApi, id: string, jobId: string, o: JobOpts): Promise<SearchJob> {
  const progress = progressFor(io, o);
  progress(`waiting for job ${jobId} of ${id}…`);
  return lookingFor(
    `job ${jobId} of ${instanceName(id, o)}`,
    api.search.jobs.wait(
      { id, jobId, ...(o.namespace ? { namespace: o.namespace } : {}) },
      {
        deadlineMs: o.deadline,
        onProgress: (p) => progress(`job ${p.job.id}: running (${Math.round(p.elapsedMs / 1000)} s)`),
      },
    ),
  );
}

export function addJobVerbs(root: Command, io: VerbIo): void {
  const job = root.command("job").description("search instances: sync jobs (run, wait, logs)");
  const shared = (c: Command) =>
    leaf(c).option("--namespace <name>", "the instance's namespace (default: the default one)");

  withDeadline(
    shared(job.command("run <instanceId>"))
      .description("start a sync job (a running one is reused after a lost answer)")
      .option("--wait", "wait until the job ends (exit 3 unless it completed)"),
  ).action(
    action(io, (o: JobOpts, id: string) =>
      withClient(io, o, async (api) => {
        const started = await lookingFor(
          instanceName(id, o),
          api.search.jobs.create({ id, ...(o.namespace ? { namespace: o.namespace } : {}) }),
        );
        return jobOutcome(o.wait ? await waitJob(io, api, id, started.id, o) : started);
      }),
    ),
  );

  withDeadline(
    shared(job.command("wait <instanceId> <jobId>")).description("wait until a sync job ends"),
  ).action(
    action(io, (o: JobOpts, id: string, jobId: string) =>
      withClient(io, o, async (api) => jobOutcome(await waitJob(io, api, id, jobId, o))),
    ),
  );

  shared(job.command("logs <instanceId> <jobId>"))
    .description("a sync job's log lines, oldest first")
    .action(
      action(io, (o: JobOpts, id: string, jobId: string) =>
        withClient(io, o, async (api) => {
          const lines = await lookingFor(
            `job ${jobId} of ${instanceName(id, o)}`,
            api.search.jobs.logs({ id, jobId, ...(o.namespace ? { namespace: o.namespace } : {}) }).toArray(),
          );
          return { result: lines, text: lines.map((l) => `${l.created_at}  ${l.message}\n`).join("") };
        }),
      ),
    );
}
