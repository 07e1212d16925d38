/**
 * Functions that run on `up` only, on the real engine: a preview shows their outputs as unknown (as a
 * resource's outputs before it exists), with no "Undefined value … will not show as a stack output"
 * warning, and the up gives the value.
 */
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { triggerBuild } from "../../provider/functions/builds";
import { productionTriggerBody, seedBuildWorld } from "../helpers/builds";
import { useE2E } from "./harness";

/** The engine's marker of an unknown property value in its events. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

function stackOutputs(events: readonly EngineEvent[]): Record<string, unknown> | undefined {
  // The stack's last outputs event carries what the program exported (the first one, none yet).
  const done = events.findLast((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack");
  return done?.resOutputsEvent?.metadata.new?.outputs;
}

const warnings = (events: readonly EngineEvent[]): string[] =>
  events.flatMap((e) => (e.diagnosticEvent?.severity === "warning" ? [e.diagnosticEvent.message] : []));

describe("functions at preview (real engine)", function () {
  this.timeout(300_000);
  const e2e = useE2E("fnpreview");

  it("triggerBuild's output is unknown on preview, with no warning, and the build on up", async () => {
    const world = await seedBuildWorld(e2e);
    const trigger = await e2e.api.builds.triggers.create({}, productionTriggerBody(world));
    const triggerUuid = trigger.trigger_uuid;
    const { stack } = await e2e.stack(async () => ({
      buildOutcome: triggerBuild({ triggerUuid, branch: "main" }),
    }));
    const builds = () =>
      e2e.emulator.requestLog.filter(
        (r) => r.method === "POST" && r.url.includes(`/builds/triggers/${triggerUuid}/builds`),
      ).length;

    for (const round of ["before the first up", "after an up"]) {
      const events: EngineEvent[] = [];
      // After the up, the unknown output is no change: `--expect-no-changes` holds.
      const preview = await stack.preview({
        onEvent: (e) => events.push(e),
        expectNoChanges: round === "after an up",
      });
      assert.equal(stackOutputs(events)?.buildOutcome, UNKNOWN, `unknown on preview ${round}`);
      // The engine's rendering: `[unknown]` for a new output; an unchanged stack lists none (never "removed").
      if (round === "before the first up") assert.match(preview.stdout, /buildOutcome\s*:\s*\[unknown\]/);
      assert.doesNotMatch(preview.stdout, /-\s*buildOutcome/, `${round}: ${preview.stdout}`);
      const undefinedWarnings = warnings(events).filter((w) => /Undefined value/.test(w));
      assert.deepEqual(undefinedWarnings, [], round);
      assert.doesNotMatch(preview.stdout + preview.stderr, /will not show as a stack output/, round);
      assert.equal(builds(), round === "after an up" ? 1 : 0, "a preview starts no build");
      if (round === "before the first up") {
        const up = await stack.up();
        const outcome = up.outputs.buildOutcome?.value as { triggerUuid?: string; buildUuid?: string };
        assert.equal(outcome.triggerUuid, triggerUuid, "the up gives the build");
        assert.match(String(outcome.buildUuid), /^[0-9a-f-]{36}$/);
      }
    }
  });
});
