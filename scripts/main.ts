/**
 * The main job (`npm start`): start the emulator with a persistent state file, seed what the
 * dashboard would have made (scripts, a zone with its origin, a sender domain…), then run a real
 * `pulumi up` of examples/main on a local file backend, show the outputs, and prove the stack is
 * stable with a preview that expects no changes, and end with the drift report (`account-api drift`:
 * a refresh preview through the engine; "no drift: N resources checked", exit 0) and the count of
 * write requests the run made (0 on a second run). Pass `--destroy` to tear the stack down afterwards.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { render, stackDrift } from "../provider/drift";
import { startEmulator } from "../emulator/server";
import { program, seed } from "../examples/main";
import { AccountApi } from "../sdk";

const root = resolve(__dirname, "..");
const stateDir = join(root, ".state");

async function main(): Promise<void> {
  const destroy = process.argv.includes("--destroy");
  mkdirSync(join(stateDir, "backend"), { recursive: true });
  const em = await startEmulator({ stateFile: join(stateDir, "emulator.json"), env: {} });
  console.log(`[main] emulator on ${em.url} (account ${em.accountId}, state in .state/emulator.json)`);
  console.log(`[main] console: ${em.origin}/ (outbox, builds, requests…; open it while the run goes on)`);
  const api = new AccountApi({ baseUrl: em.url, token: em.token, accountId: em.accountId });
  const writes = (): number => em.requestLog.filter((r) => r.method !== "GET" && r.method !== "HEAD").length;
  try {
    const seeded = await seed(api, em);
    const command = await PulumiCommand.get({ root: join(root, ".engine"), skipVersionCheck: true });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", projectName: "account-api-demo", program: () => program(seeded) },
      {
        workDir: root,
        pulumiCommand: command,
        envVars: {
          PULUMI_BACKEND_URL: `file://${join(stateDir, "backend")}`,
          PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "local-emulator",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
          PATH: [
            join(root, ".engine", "bin"),
            join(root, "node_modules", ".bin"),
            process.env.PATH ?? "",
          ].join(":"),
        },
      },
    );
    await stack.setAllConfig({
      "account-api:baseUrl": { value: em.url },
      "account-api:accountId": { value: em.accountId },
      "account-api:apiToken": { value: em.token, secret: true },
    });
    const print = (line: string): void => {
      process.stdout.write(line);
    };
    console.log("[main] pulumi up");
    const up = await stack.up({ onOutput: print });
    console.log(`[main] up: ${up.summary.result}; outputs:`);
    for (const [k, v] of Object.entries(up.outputs))
      console.log(`  ${k} = ${v.secret ? "[secret]" : JSON.stringify(v.value)}`);
    console.log("[main] pulumi preview --refresh --expect-no-changes");
    await stack.preview({ onOutput: print, expectNoChanges: true, refresh: true });
    console.log("[main] account-api drift");
    const drift = await stackDrift(stack);
    process.stdout.write(render(drift, "text"));
    // A second `npm start` with nothing changed must write nothing: the runs happen only on change.
    console.log(`[main] write requests to the emulator in this run: ${writes()}`);
    process.exitCode = drift.exitCode;
    if (destroy) {
      console.log("[main] pulumi destroy");
      await stack.destroy({ onOutput: print });
    }
  } finally {
    await api.close();
    await em.stop();
  }
  // The emulator stops with the run; its state (the outbox, the builds and their logs) stays.
  console.log(
    "[main] to look at this run in the console again: npm run cli -- emulator --state .state/emulator.json, then open http://127.0.0.1:8787/",
  );
}

main().catch((err: unknown) => {
  console.error(`[main] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
