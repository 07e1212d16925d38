/**
 * The console's search, meetings, markdown and registrar pages in a real headless Chromium (issue 28):
 * each shows its objects, seeded through the API, and follows a change made elsewhere without a
 * reload; the markdown page fetches a page through the edge and shows the Markdown with its token
 * counts; the registrar page's buttons move a workflow, and a finished one offers no move.
 * Screenshots (1280x800) go to docs/emulator/console-<page>.png when CONSOLE_SCREENSHOTS=1.
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../emulator/clock";
import { DETOUR_AT_MS } from "../../emulator/registrar/workflow";
import { ITEM_MS, SCAN_MS } from "../../emulator/search/sync";
import { countTokens } from "../../emulator/markdown/tokens";
import { AccountApi } from "../../sdk";
import { activate, disabledOf, fill, textOf, useConsole, waitFor } from "./console-fixture";

const ARTICLE =
  "<!doctype html><html><head><title>Guide</title></head><body><main><h1>Guide</h1>" +
  '<p>Read <em>this</em> first, then the <a href="/docs/next">next page</a>.</p></main></body></html>';

describe("console pages: registrar, search, meetings, markdown (headless Chromium)", function () {
  this.timeout(120_000);
  const clock = new ManualClock(Date.parse("2026-03-02T09:00:00Z"));
  const fx = useConsole({ clock });
  let api: AccountApi;

  before(() => {
    api = new AccountApi({
      baseUrl: fx.emulator.url,
      token: fx.emulator.token,
      accountId: fx.emulator.accountId,
      env: {},
    });
  });
  after(() => api?.close());

  /** The visible text of the console's view. */
  const viewText = () => textOf(fx.page, "main");

  it("search: instances with jobs, logs and items, following a sync as it runs", async () => {
    await api.search.instances.create({}, { id: "kb", type: "r2", source: "docs-bucket" });
    await fx.open("search");
    await fx.page.waitForSelector('[data-testid="search-instance"][data-instance="kb"]');
    assert.match(await viewText(), /No jobs yet\./);

    // A sync started elsewhere shows up without a reload, then its items and logs.
    await api.search.jobs.create({ id: "kb" }, { description: "nightly" });
    clock.advance(SCAN_MS + 7 * ITEM_MS);
    await waitFor(fx.page, `document.querySelectorAll('[data-testid="search-item-row"]').length === 7`);
    const job = await textOf(fx.page, '[data-testid="search-job-row"]');
    assert.match(job, /nightly/);
    assert.match(job, /completed/);
    await activate(fx.page, '[data-testid="search-job-row"] summary');
    const logs = await fx.page.$$eval('[data-testid="search-job-logs"] li', (li) => li.length);
    assert.ok(logs > 0, "the job's logs are listed");
    const failed = await textOf(fx.page, '[data-testid="search-item-row"][data-key="doc-5.md"]');
    assert.match(failed, /error: unsupported_type/);
    await fx.screenshot("search");
  });

  it("meetings: apps, meetings and the live session by name, never a participant's token", async () => {
    const app = await api.meetings.apps.create({}, { name: "support" });
    assert.ok(app.id);
    const meeting = await api.meetings.meetings.create({ appId: app.id }, { title: "Weekly standup" });
    assert.ok(meeting.id);
    await fx.open("meetings");
    const row = `[data-testid="meeting-row"][data-meeting="${meeting.id}"]`;
    await fx.page.waitForSelector(row);
    assert.match(await textOf(fx.page, row), /Weekly standup[\s\S]*ACTIVE[\s\S]*none yet/);

    // Ada joins (the control API stands in for the WebRTC client): the session appears, live.
    const ada = await api.meetings.participants.add(
      { appId: app.id, meetingId: meeting.id },
      { custom_participant_id: "ada", preset_name: "host", name: "Ada Lovelace" },
    );
    assert.ok(ada.token);
    await fx.control(
      "POST",
      `/meetings/accounts/${fx.emulator.accountId}/apps/${app.id}/meetings/${meeting.id}/join`,
      {
        token: ada.token,
      },
    );
    await waitFor(
      fx.page,
      `document.querySelector('${row} [data-testid="meeting-session"]')?.dataset.status === "LIVE"`,
    );
    assert.match(await textOf(fx.page, row), /in it: Ada Lovelace/);
    const html = await fx.page.content();
    assert.ok(!html.includes(ada.token), "no participant token reaches the page");
    await fx.screenshot("meetings");
  });

  describe("markdown", () => {
    let origin: Server;
    before(async () => {
      origin = createServer((req, res) => {
        if (req.url !== "/docs/guide") return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
      });
      await new Promise<void>((ok) => origin.listen(0, "127.0.0.1", ok));
    });
    after(() => new Promise<void>((ok) => origin.close(() => ok())));

    it("shows zones, content_converter and rules, live, and a page fetched as Markdown with its token counts", async () => {
      const zone = await api.content.zones.create({}, { name: "docs.example.com" });
      await fx.control("PUT", `/content/zones/${zone.id}/origin`, {
        url: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
      });
      await api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [
            {
              expression: 'starts_with(http.request.uri.path, "/docs")',
              action: "set_config",
              action_parameters: { content_converter: true },
              description: "Markdown for agents under /docs",
              enabled: true,
            },
          ],
        },
      );
      await fx.open("markdown");
      const row = '[data-testid="zone-row"][data-zone="docs.example.com"]';
      await fx.page.waitForSelector(`${row} [data-testid="rule-row"]`);
      assert.match(await textOf(fx.page, row), /docs\.example\.com[\s\S]*off/);
      assert.match(
        await textOf(fx.page, `${row} [data-testid="rule-row"]`),
        /starts_with\(http\.request\.uri\.path, "\/docs"\) → content_converter true · Markdown for agents under \/docs/,
      );

      // The setting changed through the API: the page follows.
      await api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
      await waitFor(fx.page, `/\\bon\\b/.test(document.querySelector('${row} strong')?.textContent ?? "")`);

      await fill(fx.page, '[data-testid="markdown-host"]', "docs.example.com");
      await fill(fx.page, '[data-testid="markdown-path"]', "/docs/guide");
      await activate(fx.page, '[data-testid="markdown-fetch"]');
      await fx.page.waitForSelector('[data-testid="markdown-body"]');
      const shown = await fx.page.$eval('[data-testid="markdown-body"]', (p) => p.textContent ?? "");
      assert.match(shown, /^# Guide/m);
      assert.match(shown, /Read _this_ first/);
      const tokens = await fx.page.$eval('[data-testid="markdown-tokens"]', (d) => d.textContent);
      const original = await fx.page.$eval('[data-testid="markdown-original-tokens"]', (d) => d.textContent);
      assert.equal(tokens, String(countTokens(shown)));
      assert.equal(original, String(countTokens(ARTICLE)));
      assert.match(
        await fx.page.$eval('[data-testid="markdown-status"]', (d) => d.textContent ?? ""),
        /^200/,
      );
      await fx.screenshot("markdown");

      // A path that would resolve outside the edge is refused by the page, not fetched.
      await fill(fx.page, '[data-testid="markdown-path"]', "/../../__emulator/state");
      await activate(fx.page, '[data-testid="markdown-fetch"]');
      await fx.page.waitForSelector('[data-testid="markdown-result"] [role="alert"]');
      assert.match(
        await textOf(fx.page, '[data-testid="markdown-result"]'),
        /^Not fetched: .* is not a page of the edge/,
      );
    });
  });

  it("registrar: registrations and workflows, moved from the page; a finished workflow offers no move", async () => {
    await fx.control("POST", "/registrar/registrations", { domain_name: "already-mine.com" });
    await api.registrar.registrations.create({}, { domain_name: "blocked-console.com" });
    clock.advance(DETOUR_AT_MS);
    await fx.open("registrar");
    const wf = '[data-testid="workflow-row"][data-domain="blocked-console.com"]';
    await fx.page.waitForSelector(`${wf}[data-state="blocked"]`);
    await fx.page.waitForSelector('[data-testid="registration-row"][data-domain="already-mine.com"]');
    assert.match(await textOf(fx.page, wf), /a third party \(in_progress at /);
    assert.deepEqual(await disabledOf(fx.page, `${wf} [data-testid="move-blocked"]`), [true]);

    await activate(fx.page, `${wf} [data-testid="move-action_required"]`);
    await fx.page.waitForSelector(`${wf}[data-state="action_required"]`);
    assert.match(await textOf(fx.page, wf), /the user: Verify the registrant email/);
    await fx.screenshot("registrar");

    await activate(fx.page, `${wf} [data-testid="move-succeeded"]`);
    await fx.page.waitForSelector(`${wf}[data-state="succeeded"]`);
    await waitFor(
      fx.page,
      `document.querySelector('[data-testid="registrar-message"]')?.textContent?.endsWith("done")`,
    );
    const moves = await disabledOf(fx.page, `${wf} [data-testid^="move-"]`);
    assert.deepEqual(moves, [true, true, true, true], "a finished workflow offers no move");
    assert.equal(
      (await api.registrar.registrations.get({ domainName: "blocked-console.com" })).status,
      "active",
    );
    await waitFor(
      fx.page,
      `/active/.test(document.querySelector('[data-testid="registration-row"][data-domain="blocked-console.com"]')?.innerText ?? "")`,
    );
  });

  it("each page fits a 400px wide window (wide tables scroll in their own box) and reaches its buttons by keyboard", async () => {
    await fx.page.setViewport({ width: 400, height: 800 });
    try {
      for (const id of ["registrar", "search", "meetings", "markdown"]) {
        await fx.open(id);
        await fx.page.waitForSelector("main h1");
        const overflow = await fx.page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
        assert.ok(Number(overflow) <= 0, `${id}: the page is ${String(overflow)}px wider than the window`);
      }
      // Keyboard: Tab reaches the fetch button of the markdown form; Enter submits it.
      await fx.page.focus('[data-testid="markdown-path"]');
      await fx.page.keyboard.press("Tab");
      const focused = await fx.page.evaluate('document.activeElement?.getAttribute("data-testid")');
      assert.equal(focused, "markdown-fetch");
    } finally {
      await fx.page.setViewport({ width: 1280, height: 800 });
    }
  });
});
