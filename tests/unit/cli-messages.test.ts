/**
 * Every message of the command line tells what happened (issue 16): the service's own detail on an
 * API error, the argument a bad file or name came from (exit 64, nothing sent), what a 404 was about,
 * a base URL without /client/v4, why a page was not converted, and no stack trace on any error.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { EXIT } from "../../cli/main";
import { action, baseUrlHint, errorLine } from "../../cli/io";
import { notConvertedReason } from "../../cli/verbs/markdown";
import { runCli, runCliWith, type CliRun } from "../helpers/cli";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { useEmulator } from "../helpers/emulator";

const UUID = "12345678-1234-4234-8234-123456789abc";
const MAIL = ["send-email", "--from", "news@example.com", "--to", "ada@dest.test", "--subject", "Hi"];

/** A local server answering every request with one scripted response; counts what it was sent. */
async function scripted(
  status: number,
  body: string,
  type = "application/json",
): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests++;
    res.writeHead(status, { "content-type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** stderr is one `error: …` line, and no line of any output is a stack frame. */
function oneErrorLine(r: CliRun): string {
  assert.match(r.err, /^error: [^\n]+\n$/, `stderr: ${r.err}`);
  assert.doesNotMatch(`${r.out}${r.err}`, /^\s+at /m);
  return r.err;
}

describe("command line: messages that tell what happened", () => {
  const fx = useEmulator();

  describe("API errors show the service's own detail", () => {
    it("send-email from a domain that is not a sending domain says so, as the service did", async () => {
      const r = await runCli(fx, [...MAIL, "--text", "Hello", "--json"]);
      assert.equal(r.code, EXIT.error);
      const line = oneErrorLine(r);
      assert.match(line, /404: email\.sending\.error\.not_found \(code 10000\)/);
      assert.match(line, /from: example\.com is not a sending domain of this account/);
      const json = r.json as { error: { message: string } };
      assert.match(json.error.message, /from: example\.com is not a sending domain of this account/);
    });

    it("a 404 on a verb names what was not found", async () => {
      const cases: [string[], RegExp][] = [
        [
          ["build", "trigger", UUID, "--branch", "main"],
          new RegExp(`^error: trigger ${UUID}: not found \\(POST `),
        ],
        [["build", "purge-cache", UUID], new RegExp(`^error: trigger ${UUID}: not found \\(POST `)],
        [["build", "wait", UUID], new RegExp(`^error: build ${UUID}: not found \\(GET `)],
        [["build", "logs", UUID], new RegExp(`^error: build ${UUID}: not found \\(GET `)],
        [["build", "cancel", UUID], new RegExp(`^error: build ${UUID}: not found \\(PUT `)],
        [["job", "run", "no-such-kb"], /^error: search instance no-such-kb: not found \(POST /],
        [
          ["job", "wait", "no-such-kb", "j1"],
          /^error: job j1 of search instance no-such-kb: not found \(GET /,
        ],
        [
          ["job", "logs", "no-such-kb", "j1", "--namespace", "team"],
          /^error: job j1 of search instance no-such-kb \(namespace team\): not found \(GET /,
        ],
      ];
      for (const [args, said] of cases) {
        const r = await runCli(fx, args);
        assert.equal(r.code, EXIT.error, `${args.join(" ")}: ${r.err}`);
        assert.match(oneErrorLine(r), said, args.join(" "));
      }
    });

    it("a trigger that exists is not reported missing", async () => {
      const trigger = await productionTrigger(fx, await seedBuildWorld(fx));
      const r = await runCli(fx, ["build", "trigger", trigger, "--branch", "main"]);
      assert.equal(r.code, EXIT.ok, r.err);
    });

    it("a base URL without /client/v4: the 404 says so and what to try, not that the trigger is missing", async () => {
      const bare = fx.em.origin;
      const r = await runCli(fx, ["--base-url", bare, "build", "trigger", UUID, "--branch", "main"]);
      assert.equal(r.code, EXIT.error);
      const line = oneErrorLine(r);
      assert.match(line, /404/);
      assert.ok(
        line.includes(`the base URL ${bare} does not end in /client/v4`) &&
          line.includes(`try ${bare}/client/v4`),
        line,
      );
      assert.doesNotMatch(line, /trigger [0-9a-f-]+: not found/);
      const env = await runCli(fx, ["domain", "check", "example.com"], {
        env: { ACCOUNT_API_BASE_URL: `${bare}/api/` },
      });
      assert.ok(env.err.includes(`try ${bare}/api/client/v4`), env.err);
    });

    it("baseUrlHint: nothing to say about a base URL that ends in /client/v4", () => {
      assert.equal(baseUrlHint("https://api.example.com/client/v4"), undefined);
      assert.equal(baseUrlHint("https://api.example.com/client/v4/"), undefined);
      assert.match(baseUrlHint("https://api.example.com/client")!, /does not end in \/client\/v4/);
    });
  });

  describe("file arguments that cannot be read are bad input (64), named, and nothing is sent", () => {
    let dir = "";
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "cli-files-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("--attach, --text-file, --html-file and markdown <file>", async () => {
      const missing = join(dir, "missing.pdf");
      const cases: [string[], string][] = [
        [[...MAIL, "--text", "x", "--attach", missing], `error: --attach ${missing}: no such file\n`],
        [
          [...MAIL, "--text-file", join(dir, "body.txt")],
          `error: --text-file ${join(dir, "body.txt")}: no such file\n`,
        ],
        [[...MAIL, "--html-file", dir], `error: --html-file ${dir}: is a folder, not a file\n`],
        [
          ["markdown", join(dir, "guide.htm")],
          `error: markdown <page-or-file> ${join(dir, "guide.htm")}: no such file\n`,
        ],
      ];
      const before = fx.em.requestLog.length;
      for (const [args, said] of cases) {
        const r = await runCli(fx, args);
        assert.equal(r.code, EXIT.usage, `${args.join(" ")}: ${r.err}`);
        assert.equal(r.err, said);
      }
      assert.equal(fx.em.requestLog.length, before, "nothing was sent");
    });

    it("markdown of something that looks like a page without its scheme says how to give a page", async () => {
      const r = await runCli(fx, ["markdown", "docs.example.com/guide"]);
      assert.equal(r.code, EXIT.usage);
      assert.match(
        r.err,
        /docs\.example\.com\/guide: no such file \(a page is given by its URL, with http:\/\/ or https:\/\/\)/,
      );
    });

    it("a readable --text-file is sent as the body", async () => {
      await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, {
        body: { sending_disabled: false },
      });
      const body = join(dir, "body.txt");
      writeFileSync(body, "from a file");
      const r = await runCli(fx, [...MAIL, "--text-file", body]);
      assert.equal(r.code, EXIT.ok, r.err);
      assert.equal(r.out, "ada@dest.test: delivered\n");
    });
  });

  describe("domain names are checked the same way by every verb", () => {
    it("domain check and quote refuse a malformed name (64) naming it, before any request", async () => {
      const before = fx.em.requestLog.length;
      for (const verb of ["check", "quote"]) {
        const r = await runCli(fx, ["domain", verb, "not_a_domain"]);
        assert.equal(r.code, EXIT.usage, r.err);
        assert.match(
          oneErrorLine(r),
          new RegExp(`^error: domain ${verb}: "not_a_domain": must be a fully qualified domain name`),
        );
      }
      const mixed = await runCli(fx, ["domain", "check", "fresh-name-42.com", "bad name.com"]);
      assert.equal(mixed.code, EXIT.usage);
      assert.match(mixed.err, /"bad name\.com": must be a fully qualified domain name/);
      assert.equal(fx.em.requestLog.length, before);
    });

    it("a name the service leaves out of its answer is said, not 'no domains' (exit 3)", async () => {
      const server = await scripted(
        200,
        JSON.stringify({ success: true, errors: [], messages: [], result: { domains: [] } }),
      );
      try {
        const r = await runCliWith(
          {
            ACCOUNT_API_BASE_URL: `${server.url}/client/v4`,
            ACCOUNT_API_ACCOUNT_ID: "a".repeat(32),
            ACCOUNT_API_TOKEN: "t".repeat(40),
          },
          ["domain", "check", "Fresh-Name-42.com"],
        );
        assert.equal(r.code, EXIT.unsuccessful, r.err);
        assert.equal(r.out, "fresh-name-42.com: not in the answer (the service said nothing about it)\n");
        assert.equal(server.requests(), 1);
      } finally {
        await server.close();
      }
    });
  });

  describe("markdown says why a page was not converted", () => {
    const edge = (path: string): string => `${fx.em.origin}/__edge/example.com${path}`;
    let origin: Awaited<ReturnType<typeof scripted>> | undefined;
    afterEach(async () => {
      await origin?.close();
      origin = undefined;
    });

    async function siteAnswering(status: number, body: string, type: string): Promise<void> {
      origin = await scripted(status, body, type);
      const zone = await fx.api.content.zones.create({}, { name: "example.com" });
      const res = await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, {
        body: { url: origin.url },
      });
      assert.equal(res.status, 200, res.text);
      await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
    }

    const reasonOf = async (url: string): Promise<string> => {
      const r = await runCli(fx, ["markdown", url, "--json"], { env: { ACCOUNT_API_TOKEN: "" } });
      assert.equal(r.code, EXIT.unsuccessful, r.err);
      return (r.json as { reason: string }).reason;
    };

    it("a page that answers 404, with conversion on, is 'not found', not 'conversion is not on'", async () => {
      await siteAnswering(404, "<h1>Not here</h1>", "text/html");
      const reason = await reasonOf(edge("/missing"));
      assert.equal(reason, "the page answered 404 Not Found: there is no such page");
      const text = await runCli(fx, ["markdown", edge("/missing")], { env: { ACCOUNT_API_TOKEN: "" } });
      assert.equal(text.err, `not converted: ${reason}\n`);
    });

    it("an error status, a page that is not HTML, and HTML with conversion off each say so", async () => {
      await siteAnswering(503, "<h1>Down</h1>", "text/html");
      assert.equal(
        await reasonOf(edge("/")),
        "the page answered 503 Service Unavailable: an error, not the page",
      );
      await origin!.close();
      origin = await scripted(200, '{"a":1}', "application/json");
      const zone = (await fx.api.content.zones.list().toArray())[0]!;
      await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, { body: { url: origin.url } });
      assert.equal(
        await reasonOf(edge("/data")),
        "the page is application/json, not HTML: only HTML pages are converted",
      );
      await origin.close();
      origin = await scripted(200, "<p>hi</p>", "text/html; charset=utf-8");
      await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, { body: { url: origin.url } });
      await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "off" });
      assert.match(
        await reasonOf(edge("/page")),
        /^the page came back as HTML: Markdown conversion is not on for it/,
      );
    });

    it("a host no zone serves: the service's own message", async () => {
      const reason = await reasonOf(`${fx.em.origin}/__edge/nowhere.example/x`);
      assert.match(
        reason,
        /^the page answered 404 Not Found: there is no such page: no zone serves host nowhere\.example/,
      );
    });

    it("notConvertedReason: a redirect is named with its target, and an oversized page with its size", () => {
      assert.equal(
        notConvertedReason(301, { location: "https://example.com/new" }, ""),
        "the page answered 301 Moved Permanently: a redirect to https://example.com/new, not followed; ask for the page it points to",
      );
      assert.match(
        notConvertedReason(200, { "content-type": "text/html" }, "x".repeat(2_097_153)),
        /^the page's HTML is 2097153 bytes, over the 2097152 bytes conversion takes$/,
      );
    });
  });

  describe("no error prints a stack trace", () => {
    it("errorLine keeps the message, drops quoted stack frames, and makes one line of anything thrown", () => {
      const quoted = new Error(
        "recover: pulumi cancel: Command failed\nerror: the stack is locked\n    at ChildProcess.exithandler (node:child_process:422:12)\n    at f (/x/y.js:1:2)",
      );
      assert.equal(errorLine(quoted), "recover: pulumi cancel: Command failed error: the stack is locked");
      assert.equal(errorLine({ reason: "odd" }), '{"reason":"odd"}');
      assert.equal(errorLine(Object.assign(new Error(""), { name: "AbortError" })), "AbortError");
      assert.equal(errorLine(undefined), "unknown error");
    });

    it("a verb whose body throws anything reports one line and its exit code", async () => {
      const thrown: unknown[] = [
        new TypeError("Cannot read properties of undefined (reading 'x')\n    at body (/x/verbs.js:10:5)"),
        { not: "an error" },
        "a string",
      ];
      for (const value of thrown) {
        const out: string[] = [];
        const err: string[] = [];
        let code = -1;
        const io = {
          out: (t: string) => void out.push(t),
          err: (t: string) => void err.push(t),
          env: {},
          setExitCode: (c: number) => void (code = c),
        };
        const program = new Command("t").exitOverride();
        program
          .command("boom")
          .option("--json")
          .action(action(io, () => Promise.reject(value)));
        await program.parseAsync(["node", "t", "boom", "--json"]);
        assert.equal(code, EXIT.error);
        assert.equal(err.length, 1);
        assert.match(err[0]!, /^error: [^\n]+\n$/);
        assert.doesNotMatch(err[0]!, / at body/);
        const json = JSON.parse(out.join("")) as { error: { message: string; exitCode: number } };
        assert.equal(json.error.exitCode, EXIT.error);
        assert.equal(`error: ${json.error.message}\n`, err[0]);
      }
    });
  });
});
