/**
 * The console on the main job's emulator (what `npm start` runs: the emulator with a state file, the
 * seed, a real `pulumi up` of examples/main), driven the way tests/e2e drives that job: after the up,
 * the outbox shows the program's message with its recipient's result and the builds page shows the
 * program's build, its log to the end. Needs the engine (.engine, scripts/provision-engine.sh).
 */
import { strict as assert } from "node:assert";
import { program, seed } from "../../examples/main";
import { useE2E } from "../e2e/harness";
import { inPage, openConsole, pageText, useBrowser } from "./harness";

describe("console on the main job's emulator", function () {
  this.timeout(600_000);
  const e2e = useE2E("console-main");
  const b = useBrowser();

  it("shows the message and the build the main job's up made", async () => {
    const seeded = await seed(e2e.api, e2e.emulator);
    const stack = await e2e.stack(() => program(seeded), {
      config: { "account-api-main:deployKey": { value: "deploy-key-for-the-console-test", secret: true } },
    });
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");

    const outbox = await openConsole(b, e2e.emulator.origin, "outbox");
    await outbox.waitForSelector('[data-testid="outbox-recipient"][data-address="team@example.com"]');
    assert.equal(
      await inPage(
        outbox,
        `document.querySelector('[data-testid="outbox-recipient"][data-address="team@example.com"]').dataset.result`,
      ),
      "delivered",
    );
    assert.match(await pageText(outbox), /shop built on main: success/);
    await outbox.close();

    const builds = await openConsole(b, e2e.emulator.origin, "builds");
    await builds.waitForSelector('[data-testid="build-row"][data-status="stopped"]');
    await builds.waitForSelector('[data-testid="build-log-line"]');
    assert.match(await pageText(builds), /Success: build completed/);
    assert.ok(!(await pageText(builds)).includes(e2e.emulator.token), "no token on the page");
  });
});
