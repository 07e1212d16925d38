/**
 * The console's server side without a browser: the shell and its files under a strict policy, files
 * served only from the assets folder, the change stream (and a stop that does not wait on it), the
 * outbox routes (HTML as a sandboxed document, attachments as downloads) and the builds routes, and
 * the control API's trust checks on every console action.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { consoleAssetsDir } from "../../emulator/console/assets-dir";
import { CONSOLE_CSP } from "../../emulator/console/routes";
import { readAsset } from "../../emulator/console/static-files";
import { OUTBOX_ATTACHMENT_BYTES } from "../../emulator/email/state";
import { safeFilename } from "../../emulator/email/outbox-routes";
import { startEmulator } from "../../emulator/server";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

const FOREIGN: Record<string, Record<string, string>> = {
  "a foreign Host (DNS rebinding)": { host: "evil.example" },
  "a cross-site fetch": { "sec-fetch-site": "cross-site" },
  "another Origin": { origin: "http://evil.example" },
};

async function send(fx: EmulatorFixture, attachment: Buffer): Promise<string> {
  await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, { body: {} });
  const res = await fx.api.email.sending.send(
    {},
    {
      from: "news@example.com",
      to: "ada@dest.test",
      subject: "s",
      html: "<p>hi</p>",
      attachments: [
        {
          content: attachment.toString("base64"),
          filename: "a.bin",
          type: "text/html",
          disposition: "attachment",
        },
      ],
    },
  );
  return res.messageId!;
}

describe("console: server side", () => {
  const fx = useEmulator();

  it("serves the shell and its files with a strict content security policy, scripts by file only", async () => {
    const shell = await fx.http("GET", `${fx.em.origin}/`, { token: null });
    assert.equal(shell.status, 200);
    assert.match(shell.headers["content-type"] ?? "", /^text\/html/);
    assert.equal(shell.headers["content-security-policy"], CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /default-src 'none'; script-src 'self'; style-src 'self'/);
    assert.match(CONSOLE_CSP, /frame-ancestors 'none'/);
    assert.equal(shell.headers["x-content-type-options"], "nosniff");
    assert.doesNotMatch(shell.text, /<script>|\son[a-z]+=/i, "no inline script or handler");
    assert.match(shell.text, /<script type="module" src="\/__console\/app\.js"><\/script>/);
    for (const [file, type] of [
      ["app.js", "text/javascript"],
      ["dom.js", "text/javascript"],
      ["style.css", "text/css"],
      ["pages/index.js", "text/javascript"],
    ]) {
      const res = await fx.http("GET", `/__console/${file}`, { token: null });
      assert.equal(res.status, 200, file);
      assert.match(res.headers["content-type"] ?? "", new RegExp(`^${type}`), file);
      assert.equal(res.headers["content-security-policy"], CONSOLE_CSP, file);
    }
    for (const bad of [
      "%2e%2e/routes.ts",
      "..%2Froutes.ts",
      "pages/..%2F..%2Froutes.ts",
      "tsconfig.json",
      ".hidden.js",
      "app.js%00.css",
      "nope.js",
    ])
      assert.equal((await fx.http("GET", `/__console/${bad}`, { token: null })).status, 404, bad);
  });

  it("reads files only from the assets folder: plain names, allowed extensions, no link", () => {
    const dir = mkdtempSync(join(tmpdir(), "console-assets-"));
    try {
      mkdirSync(join(dir, "pages"));
      writeFileSync(join(dir, "pages", "a.js"), "export {};");
      writeFileSync(join(dir, "secret.txt"), "no");
      symlinkSync(join(dir, "pages", "a.js"), join(dir, "link.js"));
      symlinkSync(join(dir, "pages"), join(dir, "linked"));
      assert.equal(readAsset(dir, "pages/a.js")?.contentType, "text/javascript; charset=utf-8");
      for (const bad of [
        "secret.txt",
        "link.js",
        "linked/a.js",
        "../a.js",
        "pages/../pages/a.js",
        "pages\\a.js",
        "",
        "pages",
      ])
        assert.equal(readAsset(dir, bad), undefined, bad);
      assert.ok(readAsset(consoleAssetsDir(), "app.js"), "the console's own folder is found");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("streams change events after requests and ends the stream when the emulator stops", async () => {
    const em = await startEmulator({ env: {} });
    try {
      const res = await request(`${em.origin}/__emulator/events`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers["content-type"]), /^text\/event-stream/);
      assert.equal(res.headers["content-security-policy"], CONSOLE_CSP);
      const chunks = res.body[Symbol.asyncIterator]();
      let buffered = "";
      /** The next whole event (up to its blank line). */
      const next = async (): Promise<string> => {
        while (!buffered.includes("\n\n")) {
          const { value, done } = await chunks.next();
          if (done) return "";
          buffered += String(value);
        }
        const end = buffered.indexOf("\n\n") + 2;
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end);
        return event;
      };
      assert.match(await next(), /event: change\ndata: \{"seq":0\}/);
      // A console read changes nothing and raises nothing; an action does.
      await request(`${em.origin}/__emulator/faults`).then((r) => r.body.text());
      await request(`${em.origin}/__emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "^/x" }),
      }).then((r) => r.body.text());
      assert.match(await next(), /^event: change\ndata: \{"seq":1\}/);
      const t0 = Date.now();
      await em.stop();
      assert.ok(Date.now() - t0 < 2_000, "stop does not wait on the open stream");
      assert.equal(await next(), "", "the stream ended");
    } finally {
      await em.stop();
    }
  });

  it("ticks once a second while a build runs, with no request", async () => {
    const world = await seedBuildWorld(fx);
    await fx.api.builds.builds.create(
      { triggerUuid: await productionTrigger(fx, world) },
      { branch: "main" },
    );
    const ctl = new AbortController();
    const res = await request(`${fx.em.origin}/__emulator/events`, { signal: ctl.signal });
    try {
      let text = "";
      for await (const chunk of res.body) {
        text += String(chunk);
        if (/data: \{"seq":1\}/.test(text)) break;
      }
      assert.match(text, /data: \{"seq":0\}[\s\S]*data: \{"seq":1\}/);
    } finally {
      ctl.abort();
    }
  });

  it("serves an email's HTML as a sandboxed document and its attachment as a download", async () => {
    const id = await send(fx, Buffer.from("<script>alert(1)</script>"));
    const base = `/__emulator/email/accounts/${fx.em.accountId}/outbox/${encodeURIComponent(id)}`;
    const html = await fx.http("GET", `${base}/html`, { token: null });
    assert.equal(html.status, 200);
    assert.equal(html.text, "<p>hi</p>");
    assert.equal(
      html.headers["content-security-policy"],
      "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    );
    assert.equal(html.headers["x-content-type-options"], "nosniff");
    const file = await fx.http("GET", `${base}/attachments/0`, { token: null });
    assert.equal(file.headers["content-type"], "application/octet-stream");
    assert.equal(file.headers["content-disposition"], 'attachment; filename="a.bin"');
    assert.equal(file.text, "<script>alert(1)</script>");
    assert.equal((await fx.http("GET", `${base}/attachments/1`, { token: null })).status, 404);
    assert.equal((await fx.http("GET", `${base}/attachments/-1`, { token: null })).status, 404);
    // The listing carries no content; an attachment too large to keep is listed, not downloadable.
    const big = await send(fx, Buffer.alloc(OUTBOX_ATTACHMENT_BYTES + 1, 1));
    const list = (await fx.http("GET", `/__emulator/email/accounts/${fx.em.accountId}/outbox`)).json as {
      result: { message_id: string; message: { attachments: Record<string, unknown>[] } }[];
    };
    assert.deepEqual(
      list.result.map((e) => e.message.attachments.map((a) => [a.size, a.downloadable, "content" in a])),
      [[[25, true, false]], [[OUTBOX_ATTACHMENT_BYTES + 1, false, false]]],
    );
    const bigBase = `/__emulator/email/accounts/${fx.em.accountId}/outbox/${encodeURIComponent(big)}`;
    assert.equal((await fx.http("GET", `${bigBase}/attachments/0`, { token: null })).status, 404);
  });

  it("names a download safely", () => {
    assert.equal(safeFilename("../../etc/passwd"), "etc_passwd");
    assert.equal(safeFilename('a"b;\r\nc.txt'), "a_b_c.txt");
    assert.equal(safeFilename(".htaccess"), "htaccess");
    assert.equal(safeFilename("ünïcødé"), "n_c_d_");
    assert.equal(safeFilename("..."), "attachment");
    assert.equal(safeFilename("x".repeat(300)).length, 100);
  });

  it("lists builds with their status and log, cancels one, and lists variables by name only", async () => {
    const world = await seedBuildWorld(fx);
    const trigger = await productionTrigger(fx, world);
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: trigger },
      { API_KEY: { value: "secret-value-9f2", is_secret: true }, MODE: { value: "fast", is_secret: false } },
    );
    const build = await fx.api.builds.builds.create({ triggerUuid: trigger }, { branch: "main" });
    fx.clock.advance(6_000);
    const overview = await fx.http("GET", "/__emulator/builds/console");
    assert.ok(!overview.text.includes("secret-value-9f2") && !overview.text.includes("fast"));
    const o = (
      overview.json as {
        result: { scripts: { triggers: { variables: unknown[] }[] }[]; builds: { status: string }[] };
      }
    ).result;
    assert.deepEqual(o.scripts[0]!.triggers[0]!.variables, [
      { name: "API_KEY", is_secret: true },
      { name: "MODE", is_secret: false },
    ]);
    assert.deepEqual(
      o.builds.map((b) => b.status),
      ["running"],
    );
    const log = (await fx.http("GET", `/__emulator/builds/builds/${build.build_uuid}/log`)).json as {
      result: { lines: { text: string }[] };
    };
    assert.match(log.result.lines.map((l) => l.text).join("\n"), /Cloning github\/shop/);
    const cancel = await fx.http("POST", `/__emulator/builds/builds/${build.build_uuid}/cancel`, {
      body: {},
    });
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal((cancel.json as { result: { outcome: string } }).result.outcome, "cancelled");
    const again = await fx.http("POST", `/__emulator/builds/builds/${build.build_uuid}/cancel`, { body: {} });
    assert.equal(again.status, 400, again.text);
    assert.match(again.text, /already stopped/);
  });

  for (const [what, headers] of Object.entries(FOREIGN))
    it(`refuses a console action and the change stream to ${what}`, async () => {
      for (const [method, path] of [
        ["POST", "/__emulator/faults"],
        ["POST", "/__emulator/builds/builds/0/cancel"],
        ["DELETE", "/__emulator/faults/1"],
        ["GET", "/__emulator/events"],
        ["GET", `/__emulator/email/accounts/${fx.em.accountId}/outbox/x/html`],
      ]) {
        const res = await fx.http(method!, path!, {
          headers,
          token: null,
          ...(method === "POST" ? { body: { path: "^/x" } } : {}),
        });
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      }
      assert.deepEqual(fx.em.faults.list(), []);
    });

  it("refuses a console action posted as a form (not JSON)", async () => {
    const res = await fx.http("POST", "/__emulator/faults", {
      body: "path=^/x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      token: null,
    });
    assert.equal(res.status, 415);
    assert.deepEqual(fx.em.faults.list(), []);
  });
});
