/**
 * Issue 28's registrar promise on the real engine: `pulumi up` registers a domain whose workflow
 * does not finish by itself in time (a `blocked-*` name: blocked for BLOCKED_MS, then through), the
 * provider waits, polling, while a user opens the console's registrar page in a headless Chromium and
 * clicks `succeeded` on the workflow; `up` then completes and the registration is in the stack's
 * state, active. The workflow's own times prove the click, not the planned lift, let it through.
 */
import { strict as assert } from "node:assert";
import type { Browser, Page } from "puppeteer-core" with { "resolution-mode": "import" };
import { BLOCKED_MS } from "../../emulator/registrar/workflow";
import { DomainRegistration } from "../../provider/resources/domain-registration";
import { useE2E } from "../e2e/harness";
import { activate } from "./console-fixture";
import { launchBrowser } from "./harness";

const DOMAIN = "blocked-console-up.com";

describe("console registrar page steers a waiting pulumi up (real engine, headless Chromium)", function () {
  this.timeout(600_000);
  const e2e = useE2E("console-registrar");
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
  });
  after(() => browser?.close());

  it("approving the workflow from the page lets the waiting up finish, and the registration is in state", async () => {
    const stack = await e2e.stack(async () => {
      const site = new DomainRegistration("site", { domainName: DOMAIN });
      return { status: site.status };
    });
    let finished = false;
    const up = stack.up().finally(() => {
      finished = true;
    });
    // Kept from an unhandled rejection while the page is driven; awaited below.
    up.catch(() => undefined);

    await page.goto(`${e2e.emulator.origin}/#/registrar`);
    const wf = `[data-testid="workflow-row"][data-domain="${DOMAIN}"]`;
    const waiting = ["pending", "in_progress", "blocked"].map((s) => `${wf}[data-state="${s}"]`).join(", ");
    // The page follows the workflow as the provider starts it; an up that ends first is the failure.
    const endedEarly = up.then((r) => {
      throw new Error(`up ended (${r.summary.result}) before the workflow was moved from the page`);
    });
    endedEarly.catch(() => undefined);
    await Promise.race([page.waitForSelector(waiting, { timeout: 180_000 }), endedEarly]);
    assert.equal(finished, false, "up is waiting on the workflow");

    await activate(page, `${wf} [data-testid="move-succeeded"]`);
    await page.waitForSelector(`${wf}[data-state="succeeded"]`);

    const result = await up;
    assert.equal(result.summary.result, "succeeded");
    assert.equal(result.outputs.status?.value, "active");
    const state = stack.rawState();
    assert.match(state, /blocked-console-up\.com/, "the registration is in the stack's state");
    assert.doesNotMatch(state, /pendingAction/);

    // Moved, not lifted: the workflow succeeded well before its planned lift (BLOCKED_MS after the detour).
    const res = await fetch(`${e2e.emulator.origin}/__emulator/registrar/workflows`);
    const body = (await res.json()) as {
      result: { context: { domain_name: string }; created_at: string; updated_at: string }[];
    };
    const moved = body.result.find((w) => w.context.domain_name === DOMAIN);
    assert.ok(moved);
    assert.ok(
      Date.parse(moved.updated_at) - Date.parse(moved.created_at) < BLOCKED_MS,
      JSON.stringify(moved),
    );

    await stack.destroy();
  });
});
