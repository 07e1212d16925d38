/**
 * The console in a real headless Chromium (issue 28, part C1): the shell, the outbox (a message with
 * its recipients' results, an HTML body whose script runs nothing), builds (a log that grows while the
 * build runs, cancel), requests and faults (a rule added on the page fails the next API request), and
 * no token anywhere on a page. Each test starts its own emulator on a manual clock.
 */
import { strict as assert } from "node:assert";
import { INITIALIZING_MS, LINE_MS, QUEUED_MS } from "../../emulator/builds/timeline";
import { seedBuildWorld, productionTrigger } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";
import { inPage, openConsole, pageText, press, screenshot, useBrowser, waitUntil } from "./harness";

async function addSender(fx: EmulatorFixture, domain = "example.com"): Promise<void> {
  const res = await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/${domain}`, {
    body: {},
  });
  assert.equal(res.status, 200, res.text);
}

/** The emulator's fault rules and the request log, as the control API has them. */
async function controlState(fx: EmulatorFixture): Promise<{ faults: unknown[]; urls: string[] }> {
  const faults = (await fx.http("GET", "/__emulator/faults")).json as { result: unknown[] };
  return { faults: faults.result, urls: fx.em.requestLog.map((r) => `${r.method} ${r.url}`) };
}

describe("console in a browser (outbox, builds, requests)", function () {
  this.timeout(60_000);
  const fx = useEmulator();
  const b = useBrowser();

  it("serves the shell with its nav in order, the open page marked", async () => {
    const page = await openConsole(b, fx.em.origin, "outbox");
    const nav = await inPage<string[]>(
      page,
      `[...document.querySelectorAll('[data-testid^="nav-"]')].map((a) => a.textContent)`,
    );
    assert.deepEqual(nav, [
      "Outbox",
      "Builds",
      "Registrar",
      "Search",
      "Meetings",
      "Markdown",
      "Requests & faults",
    ]);
    assert.equal(
      await inPage(page, `document.querySelector('[data-testid="nav-outbox"]').getAttribute("aria-current")`),
      "page",
    );
  });

  it("makes links only to the console itself: h() refuses another origin however it is spelled", async () => {
    const page = await openConsole(b, fx.em.origin, "outbox");
    const outcomes = await page.evaluate(async () => {
      // Evaluated in the page: the console's own module, as its pages use it.
      const dom = (await import("/__console/dom.js" as string)) as {
        h(tag: string, attrs: Record<string, string>): unknown;
      };
      const tries = [
        "//evil.test/x",
        "/\\evil.test/x",
        "javascript:alert(1)",
        "https://evil.test/",
        "#/builds",
        "/__console/app.js",
      ];
      return tries.map((href) => {
        try {
          dom.h("a", { href });
          return `${href} allowed`;
        } catch {
          return `${href} refused`;
        }
      });
    });
    assert.deepEqual(outcomes, [
      "//evil.test/x refused",
      "/\\evil.test/x refused",
      "javascript:alert(1) refused",
      "https://evil.test/ refused",
      "#/builds allowed",
      "/__console/app.js allowed",
    ]);
  });

  it("shows a sent message with each recipient's result, its headers, text, attachments and HTML", async () => {
    await addSender(fx);
    await fx.api.email.sending.send(
      {},
      {
        from: { address: "news@example.com", name: "News" },
        to: ["ada@dest.test"],
        cc: "queue.me@dest.test",
        bcc: ["bounce-1@dest.test"],
        subject: "Spring launch",
        html: "<h1 id='hello'>Hello, Ada</h1><p style='color:#0b5cad'>Our spring range is here.</p>",
        text: "Hello, Ada. Our spring range is here.",
        headers: { "X-Campaign": "spring" },
        attachments: [
          {
            content: Buffer.from("price,item\n3,apple\n").toString("base64"),
            filename: "../prices list.csv",
            type: "text/csv",
            disposition: "attachment",
          },
        ],
      },
    );
    const page = await openConsole(b, fx.em.origin, "outbox");
    await page.waitForSelector('[data-testid="outbox-row"]');
    await page.waitForSelector('[data-testid="outbox-recipient"]');
    const results = await inPage<string[]>(
      page,
      `[...document.querySelectorAll('[data-testid="outbox-recipient"]')].map((r) => r.dataset.address + "=" + r.dataset.result)`,
    );
    assert.deepEqual(results.sort(), [
      "ada@dest.test=delivered",
      "bounce-1@dest.test=bounced",
      "queue.me@dest.test=queued",
    ]);
    const text = await pageText(page);
    for (const s of [
      "Spring launch",
      "news@example.com",
      "X-Campaign",
      "spring",
      "Hello, Ada. Our spring range is here.",
    ])
      assert.ok(text.includes(s), `the page shows ${s}`);
    // The attachment: listed with its size, downloadable under a safe name, never rendered.
    assert.match(text, /prices list\.csv — text\/csv, 19 B, attachment/);
    const href = await inPage<string>(
      page,
      `document.querySelector('[data-testid="outbox-attachment"] a').getAttribute("href")`,
    );
    const download = await fetch(fx.em.origin + href);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-disposition"), 'attachment; filename="prices_list.csv"');
    assert.equal(download.headers.get("content-type"), "application/octet-stream");
    assert.equal(await download.text(), "price,item\n3,apple\n");
    // The HTML body is rendered in a sandboxed frame.
    assert.equal(
      await inPage(page, `document.querySelector('[data-testid="outbox-html"]').getAttribute("sandbox")`),
      "",
    );
    const frame = await (await page.waitForSelector('[data-testid="outbox-html"]'))!.contentFrame();
    await frame.waitForSelector("#hello");
    assert.equal(await frame.$eval("#hello", (el) => el.textContent), "Hello, Ada");
    await screenshot(page, "outbox");
  });

  it("runs nothing of an email's HTML: its script neither posts a fault nor touches the console", async () => {
    await addSender(fx);
    const script = [
      "fetch('/__emulator/faults',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({path:'^/pwned'})});",
      "parent.document.title='pwned';",
      "document.getElementById('mark').textContent='script ran';",
    ].join("");
    await fx.api.email.sending.send(
      {},
      {
        from: "news@example.com",
        to: "ada@dest.test",
        subject: "Scripted",
        html: `<p id="mark">static</p><script>${script}</script><img src="${fx.em.origin}/__emulator/health?from=img"><form action="/__emulator/reset" method="post"></form>`,
      },
    );
    const page = await openConsole(b, fx.em.origin, "outbox");
    const sent: string[] = [];
    page.on("request", (r) => sent.push(`${r.method()} ${r.url()}`));
    const title = await page.title();
    const frameEl = await page.waitForSelector('[data-testid="outbox-html"]');
    const frame = await frameEl!.contentFrame();
    await frame.waitForSelector("#mark");
    // A round trip after the frame loaded: anything its script had sent would be in the log by now.
    await fx.http("GET", "/__emulator/health?after=frame");
    assert.equal(await frame.$eval("#mark", (el) => el.textContent), "static", "the script did not run");
    assert.equal(await page.title(), title, "the console's title is unchanged");
    const state = await controlState(fx);
    assert.deepEqual(state.faults, [], "no fault rule was added");
    assert.ok(!state.urls.some((u) => u.startsWith("POST /__emulator/faults")), "no POST to the control API");
    assert.ok(!state.urls.some((u) => u.includes("from=img")), "the remote image did not load");
    assert.ok(
      !sent.some((u) => u.includes("from=img") || u.startsWith("POST")),
      `the browser sent ${sent.join(", ")}`,
    );
    // The frame's document is served with a sandboxing policy of its own.
    const html = await fx.http(
      "GET",
      await inPage<string>(page, `document.querySelector('[data-testid="outbox-html"]').getAttribute("src")`),
    );
    assert.match(html.headers["content-security-policy"] ?? "", /^sandbox; default-src 'none'/);
  });

  it("shows a build's log growing while it runs, then cancels it from the page", async () => {
    const world = await seedBuildWorld(fx);
    const trigger = await productionTrigger(fx, world);
    const build = await fx.api.builds.builds.create({ triggerUuid: trigger }, { branch: "main" });
    // Into the running phase: the first lines are written, the build is far from done.
    fx.clock.advance(QUEUED_MS + INITIALIZING_MS + LINE_MS);
    const page = await openConsole(b, fx.em.origin, "builds");
    await page.waitForSelector(
      `[data-testid="build-row"][data-build-uuid="${build.build_uuid}"][data-status="running"]`,
    );
    await page.waitForSelector('[data-testid="build-log-line"]');
    const first = await inPage<number>(
      page,
      `document.querySelectorAll('[data-testid="build-log-line"]').length`,
    );
    const log = await inPage<string>(page, `document.querySelector('[data-testid="build-log"]').textContent`);
    assert.match(log, /Cloning github\/shop/);
    assert.doesNotMatch(log, /Success: build completed/, "the log is shown before the build finishes");
    assert.match(await pageText(page), /shop/);
    await screenshot(page, "builds");
    // The clock moves on: the page hears the change and shows the new lines.
    await fx.http("POST", "/__emulator/clock/advance", { body: { ms: 2 * LINE_MS } });
    await waitUntil(page, `document.querySelectorAll('[data-testid="build-log-line"]').length > ${first}`);
    // Cancel from the page.
    await press(
      page,
      `[data-testid="build-row"][data-build-uuid="${build.build_uuid}"] [data-testid="build-cancel"]`,
    );
    await page.waitForSelector(
      `[data-testid="build-row"][data-build-uuid="${build.build_uuid}"][data-status="stopped"]`,
    );
    await waitUntil(
      page,
      `document.querySelector('[data-testid="build-log"]').textContent.includes("Build cancelled")`,
    );
    const after = await fx.api.builds.builds.get({ buildUuid: build.build_uuid });
    assert.equal(after.build_outcome, "cancelled");
    assert.equal(
      await inPage(
        page,
        `document.querySelector('[data-testid="build-row"] [data-testid="build-cancel"]').disabled`,
      ),
      true,
    );
  });

  it("adds a fault rule from the page that fails the next API request, shows it in the log, and removes it", async () => {
    const page = await openConsole(b, fx.em.origin, "requests");
    await page.select('[data-testid="fault-method"]', "GET");
    await page.type('[data-testid="fault-path"]', "/builds/tokens$");
    await page.select('[data-testid="fault-status"]', "503");
    await page.type('[data-testid="fault-times"]', "1");
    await press(page, '[data-testid="fault-add"]');
    await page.waitForSelector('[data-testid="fault-row"]');
    assert.deepEqual(
      ((await controlState(fx)).faults as { path: string; status: number; method: string }[]).map((f) => [
        f.method,
        f.path,
        f.status,
      ]),
      [["GET", "/builds/tokens$", 503]],
    );
    await assert.rejects(fx.api.builds.tokens.list(), (e: Error & { status?: number }) => {
      assert.equal(e.status, 503, e.message);
      return true;
    });
    // The log shows the failed request live; the rule used its one time and is gone.
    await page.waitForSelector('[data-testid="request-row"][data-status="503"]');
    await page.waitForSelector('[data-testid="faults-empty"]');
    await fx.api.builds.tokens.list();
    // Filter the log by a text.
    await page.type('[data-testid="requests-filter"]', "503");
    await waitUntil(
      page,
      `[...document.querySelectorAll('[data-testid="request-row"]')].every((r) => r.dataset.status === "503")`,
    );
    // A rule added, then removed from the page.
    await page.evaluate(`document.querySelector('[data-testid="requests-filter"]').value = ""`);
    await page.type('[data-testid="fault-path"]', "^/client/v4/zones");
    await page.type('[data-testid="fault-latency"]', "5");
    await press(page, '[data-testid="fault-add"]');
    await page.waitForSelector('[data-testid="fault-row"]');
    await screenshot(page, "requests");
    await press(page, '[data-testid="fault-remove"]');
    await page.waitForSelector('[data-testid="faults-empty"]');
    assert.deepEqual((await controlState(fx)).faults, []);
  });

  it("shows a bad fault rule's error from the API, naming the field", async () => {
    const page = await openConsole(b, fx.em.origin, "requests");
    await page.type('[data-testid="fault-path"]', "(a)\\1");
    await press(page, '[data-testid="fault-add"]');
    await waitUntil(page, `document.querySelector('[data-testid="fault-error"]').textContent.length > 0`);
    assert.match(
      await inPage<string>(page, `document.querySelector('[data-testid="fault-error"]').textContent`),
      /path: backreference/,
    );
  });

  it("never shows the token on any page", async () => {
    await addSender(fx);
    await fx.api.email.sending.send(
      {},
      { from: "news@example.com", to: "ada@dest.test", subject: "s", text: "t" },
    );
    const world = await seedBuildWorld(fx);
    await fx.api.builds.builds.create(
      { triggerUuid: await productionTrigger(fx, world) },
      { branch: "main" },
    );
    for (const id of ["outbox", "builds", "requests", "registrar", "search", "meetings", "markdown"]) {
      const page = await openConsole(b, fx.em.origin, id);
      const html = String(await page.evaluate("document.documentElement.outerHTML"));
      assert.ok(!html.includes(fx.em.token), `#/${id} does not carry the token`);
      assert.ok(!(await pageText(page)).includes(fx.em.token), `#/${id} does not show the token`);
      // Each page holds an event stream: Chromium opens at most six connections to one origin.
      await page.close();
    }
  });
});
