/** The build service's verbs: trigger, wait, logs, cancel, redeploy, purge-cache, tokens. */
import type { Command } from "commander";
import type { AccountApi } from "../../sdk";
import type { Build, BuildToken } from "../../sdk/schemas/builds";
import {
  EXIT,
  UsageError,
  action,
  leaf,
  lookingFor,
  progressFor,
  withClient,
  type CommonOptions,
  type Outcome,
  type Progress,
  type VerbIo,
} from "../io";
import { withDeadline, type WaitOpts } from "./shared";

function buildLine(b: Build): string {
  const branch = b.build_trigger_metadata?.branch ?? b.branch;
  const commit = b.build_trigger_metadata?.commit_hash;
  const at = [branch && `branch ${branch}`, commit && `commit ${commit}`].filter(Boolean).join(", ");
  return `build ${b.build_uuid}: ${b.status}${b.build_outcome ? ` (${b.build_outcome})` : ""}${at ? `; ${at}` : ""}\n`;
}

/** A stopped build that did not succeed is exit 3; one still running (no --wait) is fine. */
function buildOutcome(b: Build): Outcome<Build> {
  const failed = b.status === "stopped" && b.build_outcome !== "success";
  return { result: b, text: buildLine(b), exitCode: failed ? EXIT.unsuccessful : EXIT.ok };
}

function waitBuild(api: AccountApi, uuid: string, deadlineMs: number, progress: Progress): Promise<Build> {
  progress(`waiting for build ${uuid} (at most ${Math.round(deadlineMs / 1000)} s)…`);
  return lookingFor(
    `build ${uuid}`,
    api.builds.builds.wait(
      { buildUuid: uuid },
      {
        deadlineMs,
        onProgress: (b) => progress(`build ${b.build_uuid}: ${b.status}`),
      },
    ),
  );
}

function tokensText(tokens: readonly BuildToken[]): string {
  if (!tokens.length) return "no build tokens (create one in the dashboard)\n";
  return tokens.map((t) => `${t.build_token_uuid}  ${t.build_token_name ?? ""}`.trimEnd()).join("\n") + "\n";
}

export function addBuildVerbs(root: Command, io: VerbIo): void {
  const build = root
    .command("build")
    .description("build service: trigger, wait, logs, cancel, redeploy, purge-cache, tokens");
  withDeadline(
    leaf(build.command("trigger <triggerUuid>"))
      .description("start a build (rule 1: --branch, --commit, or both)")
      .option("--branch <name>")
      .option("--commit <hash>")
      .option("--wait", "wait until the build stops (exit 3 unless it succeeded)"),
  ).action(
    action(io, (o: WaitOpts & { branch?: string; commit?: string }, triggerUuid: string) => {
      if (!o.branch && !o.commit)
        throw new UsageError("build trigger: pass --branch, --commit, or both (rule 1)");
      return withClient(io, o, async (api) => {
        const started = await lookingFor(
          `trigger ${triggerUuid}`,
          api.builds.builds.create(
            { triggerUuid },
            {
              ...(o.branch ? { branch: o.branch } : {}),
              ...(o.commit ? { commit_hash: o.commit } : {}),
            },
          ),
        );
        if (!o.wait) return buildOutcome(started);
        return buildOutcome(await waitBuild(api, started.build_uuid, o.deadline, progressFor(io, o)));
      });
    }),
  );

  withDeadline(leaf(build.command("wait <buildUuid>")).description("wait until a build stops")).action(
    action(io, (o: WaitOpts, uuid: string) =>
      withClient(io, o, async (api) =>
        buildOutcome(await waitBuild(api, uuid, o.deadline, progressFor(io, o))),
      ),
    ),
  );

  leaf(build.command("logs <buildUuid>").description("every log line of a build so far")).action(
    action(io, (o: CommonOptions, uuid: string) =>
      withClient(io, o, async (api) => {
        const logs = await lookingFor(`build ${uuid}`, api.builds.builds.collectLogs({ buildUuid: uuid }));
        const text = logs.lines.map((l) => `${l.text}\n`).join("");
        return { result: logs, text: logs.truncated ? `${text}(truncated)\n` : text };
      }),
    ),
  );

  leaf(build.command("cancel <buildUuid>").description("cancel a build that has not stopped")).action(
    action(io, (o: CommonOptions, uuid: string) =>
      withClient(io, o, async (api) => {
        const b = await lookingFor(`build ${uuid}`, api.builds.builds.cancel({ buildUuid: uuid }));
        return { result: b, text: buildLine(b) };
      }),
    ),
  );

  withDeadline(
    leaf(build.command("redeploy <scriptName>"))
      .description("rebuild the branch and commit behind the script's active deployment (rule 2)")
      .option("--wait", "wait until the build stops (exit 3 unless it succeeded)"),
  ).action(
    action(io, (o: WaitOpts, scriptName: string) =>
      withClient(io, o, async (api) => {
        const r = await api.builds.builds.redeployActiveDeployment({ scriptName });
        const b = o.wait ? await waitBuild(api, r.build.build_uuid, o.deadline, progressFor(io, o)) : r.build;
        const outcome = buildOutcome(b);
        return {
          ...outcome,
          result: { versionId: r.versionId, build: b },
          text: `version ${r.versionId}: ${outcome.text}`,
        };
      }),
    ),
  );

  leaf(build.command("purge-cache <triggerUuid>").description("clear a trigger's build cache")).action(
    action(io, (o: CommonOptions, triggerUuid: string) =>
      withClient(io, o, async (api) => {
        await lookingFor(`trigger ${triggerUuid}`, api.builds.triggers.purgeCache({ triggerUuid }));
        return {
          result: { purged: triggerUuid },
          text: `purged the build cache of trigger ${triggerUuid}\n`,
        };
      }),
    ),
  );

  leaf(build.command("tokens").description("list the account's build tokens")).action(
    action(io, (o: CommonOptions) =>
      withClient(io, o, async (api) => {
        const tokens = await api.builds.tokens.list();
        return { result: tokens, text: tokensText(tokens) };
      }),
    ),
  );
}
