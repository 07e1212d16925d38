/**
 * YAML on the native provider: examples/yaml/Pulumi.yaml, a `runtime: yaml` project, runs the full
 * sequence of issue 19 (tests/e2e/native-sequence.ts) through the real CLI and the YAML language host
 * (scripts/provision-yaml.sh), driven by the Node Automation API over the project's folder (a local
 * program, not an inline one), against the emulator.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { LocalWorkspace, PulumiCommand, type OutputMap } from "@pulumi/pulumi/automation";
import { REPO_ROOT } from "./harness";
import { nativeSequence, type Outcome } from "./native-sequence";
import { provisionYamlHost } from "./pulumi-cli";

/** The outputs as the Python and Go examples print them: secrets masked. */
function masked(outputs: OutputMap): Outcome["outputs"] {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]));
}

describe("YAML: examples/yaml with the real CLI on the native provider (real engine)", function () {
  nativeSequence("yaml", async (ctx) => {
    // Idempotent; a cold machine builds the host once (about 30 s after the CLI's build).
    provisionYamlHost();
    copyFileSync(join(REPO_ROOT, "examples", "yaml", "Pulumi.yaml"), join(ctx.work, "Pulumi.yaml"));
    const pulumiCommand = await PulumiCommand.get({
      root: join(REPO_ROOT, ".engine"),
      skipVersionCheck: true,
    });
    const stack = await LocalWorkspace.createStack(
      { stackName: "dev", workDir: ctx.work },
      { pulumiCommand, envVars: ctx.env },
    );
    const onOutput = (line: string): void => void process.stdout.write(line.replace(/^(?=.)/gm, "      | "));
    return async (step) => {
      for (const [key, value] of Object.entries(step.config ?? {})) await stack.setConfig(key, { value });
      for (const [key, value] of Object.entries(step.secrets ?? {}))
        await stack.setConfig(key, { value, secret: true });
      const { operation, refresh, expectNoChanges } = step;
      switch (operation) {
        case "up": {
          const up = await stack.up({ refresh, expectNoChanges, onOutput });
          return { operation, changes: up.summary.resourceChanges ?? {}, outputs: masked(up.outputs) };
        }
        case "preview": {
          const preview = await stack.preview({ refresh, expectNoChanges, onOutput });
          return { operation, changes: preview.changeSummary, outputs: masked(await stack.outputs()) };
        }
        case "refresh": {
          const refreshed = await stack.refresh({ expectNoChanges, onOutput });
          return {
            operation,
            changes: refreshed.summary.resourceChanges ?? {},
            outputs: masked(await stack.outputs()),
          };
        }
        case "destroy": {
          const destroyed = await stack.destroy({ onOutput });
          return {
            operation,
            changes: destroyed.summary.resourceChanges ?? {},
            outputs: masked(await stack.outputs()),
          };
        }
      }
    };
  });
});
