/**
 * The command line with untrusted input on both sides (issue 24): a server that echoes the token in
 * its headers gets it printed nowhere, and what it sends reaches the terminal inert; a plain-http
 * base URL to another host is refused before anything is sent; file arguments are sized with stat
 * before they are read, and every bad one is exit 64 naming the argument.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXIT } from "../../cli/main";
import { clientFor } from "../../cli/io";
import { ConfigurationError } from "../../sdk";
import { runCliWith } from "../helpers/cli";

const TOKEN = "cli_S3cr3t-T0ken_abcdefghijklmnop";
const ACCOUNT = "023e105f4ecef8ad9ca31a8372d0c353";
const MiB = 1024 * 1024;

interface Echo {
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A server that answers 403 with the request's Authorization echoed in `x-request-id` (followed by an
 * 8-bit CSI, which a header may carry) and an error message that holds an escape sequence.
 */
async function echoServer(): Promise<Echo> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    const body = JSON.stringify({
      success: false,
      errors: [{ code: 10000, message: `denied for ${req.headers.authorization} \u001b[2Jgone` }],
      messages: [],
      result: null,
    });
    res
      .writeHead(403, {
        "content-type": "application/json",
        "x-request-id": `req-${req.headers.authorization ?? ""}\u009b31m`,
        "retry-after": req.headers.authorization ?? "",
      })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the command line with untrusted input", () => {
  describe("a server that echoes the token in its headers", () => {
    let srv: Echo;
    beforeEach(async () => {
      srv = await echoServer();
    });
    afterEach(() => srv.close());

    it("gets it printed nowhere, in text or --json, and its request id reaches the terminal inert", async () => {
      const env = {
        ACCOUNT_API_BASE_URL: srv.url,
        ACCOUNT_API_TOKEN: TOKEN,
        ACCOUNT_API_ACCOUNT_ID: ACCOUNT,
      };
      const text = await runCliWith(env, ["build", "tokens"]);
      const json = await runCliWith(env, ["build", "tokens", "--json"]);
      assert.equal(srv.seen.length, 2, "both runs reached the server");
      assert.equal(srv.seen[0]!.authorization, `Bearer ${TOKEN}`, "the server did see the token");
      for (const r of [text, json]) {
        assert.equal(r.code, EXIT.error);
        for (const stream of [r.out, r.err]) {
          assert.ok(!stream.includes(TOKEN), `the token was printed: ${stream}`);
          assert.ok(!stream.includes(encodeURIComponent(TOKEN)), `the token was printed: ${stream}`);
        }
        // Nothing the server sent can act on the terminal: no raw ESC, no 8-bit CSI.
        // eslint-disable-next-line no-control-regex -- looking for controls is the point
        assert.doesNotMatch(r.err, /[\u001b\u009b]/);
        assert.ok(r.err.includes("[request req-Bearer [redacted]\\x9b31m]"), r.err);
        assert.ok(r.err.includes("denied for Bearer [redacted] \\x1b[2Jgone"), r.err);
      }
      // The JSON holds the value exactly (redacted), as data.
      const error = (json.json as { error: { message: string } }).error;
      assert.ok(error.message.endsWith("[request req-Bearer [redacted]\u009b31m]"), error.message);
    });
  });

  describe("plain http to a host other than loopback", () => {
    const env = { ACCOUNT_API_TOKEN: TOKEN, ACCOUNT_API_ACCOUNT_ID: ACCOUNT };

    it("is refused (64) naming the flag, the variable and how to allow it, from --base-url or the environment", async () => {
      const runs = [
        await runCliWith(env, ["--base-url", "http://api.example.com/client/v4", "build", "tokens"]),
        await runCliWith({ ...env, ACCOUNT_API_BASE_URL: "http://10.1.2.3:8787/client/v4" }, [
          "build",
          "tokens",
          "--json",
        ]),
      ];
      for (const r of runs) {
        assert.equal(r.code, EXIT.usage, r.err);
        assert.match(
          r.err,
          /^error: --base-url or ACCOUNT_API_BASE_URL: plain http only to a loopback host \(127\.0\.0\.0\/8, ::1, localhost\), or the token travels in clear to [\w.:]+: use https, or allow it with --insecure-http \(or ACCOUNT_API_INSECURE_HTTP=1\)\n$/,
        );
      }
      assert.equal((runs[1]!.json as { error: { name: string } }).error.name, "ConfigurationError");
    });

    it("is allowed by --insecure-http or ACCOUNT_API_INSECURE_HTTP; a bad value of the variable is named", async () => {
      const io = { out: () => undefined, err: () => undefined };
      const baseUrl = "http://api.example.com/client/v4";
      assert.throws(() => clientFor({ ...io, env }, { baseUrl }), ConfigurationError);
      const byFlag = clientFor({ ...io, env }, { baseUrl, insecureHttp: true });
      const byEnv = clientFor({ ...io, env: { ...env, ACCOUNT_API_INSECURE_HTTP: "1" } }, { baseUrl });
      assert.equal(byFlag.client.baseUrl, baseUrl);
      assert.equal(byEnv.client.baseUrl, baseUrl);
      await Promise.all([byFlag.close(), byEnv.close()]);
      const odd = await runCliWith({ ...env, ACCOUNT_API_INSECURE_HTTP: "maybe" }, ["build", "tokens"]);
      assert.equal(odd.code, EXIT.usage);
      assert.equal(
        odd.err,
        "error: --insecure-http or ACCOUNT_API_INSECURE_HTTP: must be true or false (1 or 0)\n",
      );
    });
  });

  describe("other arguments", () => {
    it("an empty --base-url or --account-id, and a number that is not plain digits, are bad input naming the flag", async () => {
      const env = {
        ACCOUNT_API_TOKEN: TOKEN,
        ACCOUNT_API_ACCOUNT_ID: ACCOUNT,
        ACCOUNT_API_BASE_URL: "https://127.0.0.1:9/client/v4",
      };
      const empty = await runCliWith(env, ["--base-url", "", "build", "tokens"]);
      assert.equal(empty.code, EXIT.usage);
      assert.equal(
        empty.err,
        "error: --base-url: empty; leave the flag out to use the environment's value\n",
      );
      const account = await runCliWith(env, ["--account-id", " ", "build", "tokens"]);
      assert.equal(account.code, EXIT.usage);
      assert.equal(
        account.err,
        "error: --account-id: empty; leave the flag out to use the environment's value\n",
      );
      for (const n of ["0x10", "1e3", "99999999999999999999"]) {
        const r = await runCliWith(env, [
          "build",
          "wait",
          "12345678-1234-4234-8234-123456789abc",
          "--deadline",
          n,
        ]);
        assert.equal(r.code, EXIT.usage, n);
        assert.match(r.err, /--deadline <ms>.*must be a positive integer/, n);
      }
    });
  });

  describe("file arguments", () => {
    let dir = "";
    let requests = 0;
    let server: Server;
    let env: NodeJS.ProcessEnv = {};
    const MAIL = ["send-email", "--from", "ops@example.com", "--to", "dev@example.org", "--subject", "s"];

    /** A file of `bytes` zeros that takes no disk (sparse). */
    const sized = (name: string, bytes: number): string => {
      const file = join(dir, name);
      closeSync(openSync(file, "w"));
      truncateSync(file, bytes);
      return file;
    };

    /** Each run exits 64 with exactly its one line on stderr, and none sent a request. */
    const allRefused = async (cases: readonly [string[], string][]): Promise<void> => {
      for (const [args, said] of cases) {
        const r = await runCliWith(env, args);
        assert.equal(r.code, EXIT.usage, `${args.join(" ")}: ${r.err}`);
        assert.equal(r.err, said);
      }
      assert.equal(requests, 0, "nothing was sent");
    };

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "cli-files-"));
      requests = 0;
      server = createServer((_req, res) => {
        requests++;
        res.writeHead(500, { "content-type": "application/json" }).end('{"success":false,"errors":[]}');
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      env = {
        ACCOUNT_API_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`,
        ACCOUNT_API_TOKEN: TOKEN,
        ACCOUNT_API_ACCOUNT_ID: ACCOUNT,
      };
    });
    afterEach(async () => {
      rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("--attach and --text-file are sized against the 5 MiB limit before they are read (64, named, nothing sent)", async () => {
      const big = sized("big.bin", 64 * MiB);
      const body = sized("body.txt", 6 * MiB);
      const three = [sized("a.bin", 3 * MiB), sized("b.bin", 3 * MiB)];
      const cases: [string[], string][] = [
        [
          [...MAIL, "--text", "t", "--attach", big],
          `error: --attach ${big}: ${64 * MiB} bytes, over 3932160 bytes, as base64 over the 5 MiB (5242880 bytes) an email may be as sent\n`,
        ],
        [
          [...MAIL, "--text-file", body],
          `error: --text-file ${body}: ${6 * MiB} bytes, over the 5 MiB (5242880 bytes) an email may be as sent\n`,
        ],
        [
          [...MAIL, "--html-file", body],
          `error: --html-file ${body}: ${6 * MiB} bytes, over the 5 MiB (5242880 bytes) an email may be as sent\n`,
        ],
        [
          // Each fits alone; together, as base64 (4194304 bytes each), with the text and subject, they do not: the second is named.
          [...MAIL, "--text", "t", "--attach", three[0]!, "--attach", three[1]!],
          `error: --attach ${three[1]}: with the message's other parts before it, 8388610 bytes as sent, over the 5 MiB (5242880 bytes) an email may be as sent\n`,
        ],
      ];
      await allRefused(cases);
    });

    it("a pipe, a device or a folder given as a file is refused without reading it (64, named)", async () => {
      const fifo = join(dir, "pipe");
      execFileSync("mkfifo", [fifo]);
      const cases: [string[], string][] = [
        // Read, a pipe would wait for a writer forever and /dev/zero would never end.
        [
          [...MAIL, "--text", "t", "--attach", fifo],
          `error: --attach ${fifo}: is not a regular file (a device, a pipe or a socket)\n`,
        ],
        [
          [...MAIL, "--text-file", "/dev/zero"],
          "error: --text-file /dev/zero: is not a regular file (a device, a pipe or a socket)\n",
        ],
        [
          ["markdown", fifo],
          `error: markdown <page-or-file> ${fifo}: is not a regular file (a device, a pipe or a socket)\n`,
        ],
        [[...MAIL, "--text", "t", "--attach", dir], `error: --attach ${dir}: is a folder, not a file\n`],
      ];
      await allRefused(cases);
    });

    it("markdown <file> takes what the service converts at most; --text and --text-file together; --cwd naming a file", async () => {
      const page = sized("page.html", 3 * MiB);
      const md = await runCliWith(env, ["markdown", page]);
      assert.equal(md.code, EXIT.usage);
      assert.equal(
        md.err,
        `error: markdown <page-or-file> ${page}: ${3 * MiB} bytes, over the 2097152 bytes conversion takes\n`,
      );
      const body = join(dir, "body.txt");
      writeFileSync(body, "from a file");
      const both = await runCliWith(env, [...MAIL, "--text", "t", "--text-file", body]);
      assert.equal(both.code, EXIT.usage);
      assert.equal(
        both.err,
        "error: --text-file: pass the plain-text body once: --text or --text-file, not both\n",
      );
      const cwd = await runCliWith(env, ["recover", "--stack", "dev", "--cwd", body]);
      assert.equal(cwd.code, EXIT.usage);
      assert.equal(cwd.err, `error: --cwd ${body}: is a file, not a folder\n`);
      assert.equal(requests, 0, "nothing was sent");
    });
  });
});
