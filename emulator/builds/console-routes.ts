/**
 * The builds page's control routes (under /__emulator/builds): scripts with their triggers, builds
 * with their status, a build's log so far, and cancel. The first account's, without auth (the control
 * API's trust checks apply). A trigger's variables are listed by name only: a secret's value (and a
 * plain one, for symmetry) stays in the API.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { NoParams, defineControl } from "../define";
import type { BuildRecord } from "./model";
import type { BuildsModel } from "./state";
import { viewBuild } from "./timeline";

/** How many builds the page lists, newest first. */
export const CONSOLE_BUILDS = 100;

const BuildParams = z.object({ build_uuid: z.string().min(1) });

function buildRow(b: BuildRecord, now: number) {
  const v = viewBuild(b, now);
  return {
    build_uuid: b.build_uuid,
    script_name: b.script_name,
    trigger_name: b.trigger.trigger_name,
    kind: b.kind,
    branch: b.branch,
    commit_hash: b.commit_hash,
    status: v.status,
    outcome: v.outcome,
    created_on: b.created_on,
    stopped_on: v.stoppedOn,
  };
}

export function buildsConsoleRoutes(app: FastifyInstance, open: () => BuildsModel, now: () => number): void {
  const control = defineControl(app);
  const none = { params: NoParams, permissions: undefined };
  control.get("/console", none, () => {
    const m = open();
    const t = now();
    const scripts = m.listScripts().map((s) => ({
      name: s.name,
      tag: s.tag,
      triggers: m.triggersOf(s.tag).map((tr) => ({
        trigger_uuid: tr.trigger_uuid,
        trigger_name: tr.trigger_name,
        branch_includes: tr.branch_includes,
        build_command: tr.build_command,
        deploy_command: tr.deploy_command,
        root_directory: tr.root_directory,
        variables: Object.entries(tr.environment_variables).map(([name, v]) => ({
          name,
          is_secret: v.is_secret,
        })),
      })),
    }));
    const builds = m
      .listScripts()
      .flatMap((s) => m.buildsOfScript(s.tag))
      .sort((a, b) => b.seq - a.seq)
      .slice(0, CONSOLE_BUILDS)
      .map((b) => buildRow(b, t));
    return { scripts, builds };
  });
  control.get("/builds/:build_uuid/log", { params: BuildParams, permissions: undefined }, ({ params }) => {
    const b = open().build(params.build_uuid);
    const v = viewBuild(b, now());
    return { ...buildRow(b, now()), lines: v.lines };
  });
  control.post(
    "/builds/:build_uuid/cancel",
    { params: BuildParams, permissions: undefined },
    ({ params }) => {
      const b = open().cancel(params.build_uuid);
      return buildRow(b, now());
    },
  );
}
