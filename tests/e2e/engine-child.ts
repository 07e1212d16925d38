/** The child side of tests/e2e/isolated.ts: one engine operation on one stack, in this process alone. */
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import type { ChildMessage, ChildSpec } from "./isolated";
import { programOf } from "./programs";

function send(m: ChildMessage): Promise<void> {
  return new Promise((resolve) => process.send?.(m, () => resolve()));
}

async function run(spec: ChildSpec): Promise<void> {
  const program = programOf(spec.program);
  const pulumiCommand = await PulumiCommand.get({ root: spec.engineRoot, skipVersionCheck: true });
  const stack = await LocalWorkspace.selectStack(
    { stackName: spec.stackName, projectName: spec.projectName, program },
    { workDir: spec.workDir, pulumiCommand, envVars: spec.envVars },
  );
  const onOutput = (line: string): void => void send({ kind: "output", line });
  const o = spec.opts;
  const result =
    spec.op === "up"
      ? await stack.up({ onOutput, ...(o.parallel ? { parallel: o.parallel } : {}) })
      : spec.op === "preview"
        ? await stack.preview({ onOutput, ...o })
        : spec.op === "refresh"
          ? await stack.refresh({ onOutput, ...(o.expectNoChanges ? { expectNoChanges: true } : {}) })
          : await stack.destroy({ onOutput, ...(o.parallel ? { parallel: o.parallel } : {}) });
  await send({ kind: "done", result });
}

process.once("message", (spec: ChildSpec) => {
  run(spec)
    .catch((err: unknown) =>
      send({ kind: "failed", message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => process.exit(0));
});
