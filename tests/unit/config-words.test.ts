/**
 * Configuration errors name the setting as its user knows it: in a Pulumi program the config key,
 * how to set it and the environment variable; in the command line the flag and the variable. A
 * preview with a configuration problem fails at check, once per resource, before any request.
 */
import { strict as assert } from "node:assert";
import { buildCli, EXIT } from "../../cli/main";
import { configProblem, inConfigWords, readProviderConfig } from "../../provider/config";
import { NativeProvider } from "../../provider/native/provider";
import { dispatch, openSession } from "../../provider/runtime";
import { ConfigurationError } from "../../sdk";

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ err: string; code: number }> {
  const err: string[] = [];
  let code = -1;
  await buildCli({
    out: () => undefined,
    err: (t) => err.push(t),
    env,
    isTTY: false,
    setExitCode: (c) => {
      code = c;
    },
  }).parseAsync(["node", "account-api", ...args]);
  return { err: err.join(""), code };
}

describe("configuration errors in the user's words", () => {
  it("a program's missing token names the config key, how to set it, and the variable", () => {
    const problem = configProblem({ accountId: "acct" }, {});
    assert.equal(
      problem,
      "account-api:apiToken: required (set it with `pulumi config set --secret account-api:apiToken <value>`, or the environment variable ACCOUNT_API_TOKEN)",
    );
  });

  it("no base URL is no problem: the public service's root is the default", () => {
    assert.equal(configProblem({ apiToken: "t" }, {}), undefined);
  });

  it("a malformed base URL or deadline names its key and variable", () => {
    assert.match(
      configProblem({ apiToken: "t", baseUrl: "ftp://x" }, {}) ?? "",
      /^account-api:baseUrl: must be http or https \(.*ACCOUNT_API_BASE_URL\)$/,
    );
    assert.throws(
      () => readProviderConfig(undefined, { ACCOUNT_API_DEADLINE_MS: "soon" }),
      (e: unknown) =>
        e instanceof ConfigurationError &&
        /^account-api:deadlineMs: must be a whole number of at least 1000 \(.*ACCOUNT_API_DEADLINE_MS\)$/.test(
          e.message,
        ),
    );
  });

  it("plain http to a host other than loopback is refused naming account-api:baseUrl and account-api:insecureHttp", async () => {
    const remote = "http://api.example.com/client/v4";
    const refused =
      /^account-api:baseUrl: plain http only to a loopback host \(127\.0\.0\.0\/8, ::1, localhost\), or the token travels in clear to api\.example\.com: use https, or allow it with `pulumi config set account-api:insecureHttp true` \(or ACCOUNT_API_INSECURE_HTTP=1\) \(set it with `pulumi config set account-api:baseUrl <value>`, or the environment variable ACCOUNT_API_BASE_URL\)$/;
    // From the stack config or the environment, in the dynamic provider's session and the program's functions.
    assert.match(
      configProblem(
        readProviderConfig(
          { get: (k) => ({ "account-api:baseUrl": remote })[k] },
          { ACCOUNT_API_TOKEN: "t" },
        ),
      ) ?? "",
      refused,
    );
    assert.match(
      configProblem(
        readProviderConfig(undefined, { ACCOUNT_API_TOKEN: "t", ACCOUNT_API_BASE_URL: remote }),
        {},
      ) ?? "",
      refused,
    );
    assert.match(
      openSession(undefined, { ACCOUNT_API_TOKEN: "t", ACCOUNT_API_BASE_URL: remote }).problem ?? "",
      refused,
    );
    // Allowed by account-api:insecureHttp, or by the environment.
    const allowed = readProviderConfig(
      { get: (k) => ({ "account-api:baseUrl": remote, "account-api:insecureHttp": "true" })[k] },
      {},
    );
    assert.equal(allowed.insecureHttp, true);
    assert.equal(configProblem({ ...allowed, apiToken: "t" }, {}), undefined);
    assert.equal(
      configProblem(
        readProviderConfig(undefined, {
          ACCOUNT_API_TOKEN: "t",
          ACCOUNT_API_BASE_URL: remote,
          ACCOUNT_API_INSECURE_HTTP: "1",
        }),
      ),
      undefined,
    );
    assert.throws(
      () => readProviderConfig(undefined, { ACCOUNT_API_INSECURE_HTTP: "sometimes" }),
      (e: unknown) =>
        e instanceof ConfigurationError &&
        e.message ===
          "account-api:insecureHttp: must be true or false (1 or 0) (set it with `pulumi config set account-api:insecureHttp <value>`, or the environment variable ACCOUNT_API_INSECURE_HTTP)",
    );
    // The native provider: its checkConfig names the key, its Configure makes each resource's check fail.
    const p = new NativeProvider({ version: "0.0.0-test", env: { ACCOUNT_API_TOKEN: "t" } });
    const check = await p.checkConfig("urn", {}, { baseUrl: remote });
    assert.equal(check.failures?.length, 1);
    assert.equal(check.failures?.[0]?.property, "baseUrl");
    assert.match(check.failures?.[0]?.reason ?? "", refused);
    assert.deepEqual((await p.checkConfig("urn", {}, { baseUrl: remote, insecureHttp: true })).failures, []);
    await p.configure({ "account-api:config:baseUrl": remote });
    const resource = await p.check(
      "urn:pulumi:dev::proj::account-api:index:ZoneContentConverter::r",
      {},
      { zoneId: "z1" },
    );
    assert.match(resource.failures?.[0]?.reason ?? "", refused);
  });

  it("an error without a setting is left as it is", () => {
    const e = new ConfigurationError("options: must be an object");
    assert.equal(inConfigWords(e), e);
  });

  it("check reports the problem as one failure of the resource, and no other method starts", async () => {
    const holder = { session: openSession(undefined, {}) };
    const checked = await dispatch("RepoConnection", "check", holder, [undefined, { repoId: "r" }]);
    assert.deepEqual(checked, {
      inputs: { repoId: "r" },
      failures: [
        {
          property: "",
          reason:
            "account-api:apiToken: required (set it with `pulumi config set --secret account-api:apiToken <value>`, or the environment variable ACCOUNT_API_TOKEN)",
        },
      ],
    });
    await assert.rejects(dispatch("RepoConnection", "read", holder, ["id", {}]), (e: unknown) => {
      assert.ok(e instanceof Error);
      assert.match(e.message, /^RepoConnection read: account-api:apiToken: required/);
      assert.ok(!e.stack?.includes("\n    at "), "no stack frames");
      return true;
    });
  });

  it("the command line names the flag and the variable, exit 64", async () => {
    const noToken = await cli(["build", "tokens"], { ACCOUNT_API_ACCOUNT_ID: "a" });
    assert.equal(noToken.code, EXIT.usage);
    assert.match(noToken.err, /^error: ACCOUNT_API_TOKEN \(the token is never a flag[^)]*\): required\n$/);
    const badUrl = await cli(["build", "tokens", "--base-url", "nope"], { ACCOUNT_API_TOKEN: "t" });
    assert.equal(badUrl.code, EXIT.usage);
    assert.equal(badUrl.err, 'error: --base-url or ACCOUNT_API_BASE_URL: not a URL: "nope"\n');
    const noAccount = await cli(["build", "tokens", "--base-url", "http://127.0.0.1:9/client/v4"], {
      ACCOUNT_API_TOKEN: "t",
    });
    assert.equal(noAccount.code, EXIT.usage);
    assert.equal(noAccount.err, "error: --account-id or ACCOUNT_API_ACCOUNT_ID: required\n");
  });
});
