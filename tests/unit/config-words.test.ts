/**
 * Configuration errors name the setting as its user knows it: in a Pulumi program the config key,
 * how to set it and the environment variable; in the command line the flag and the variable. A
 * preview with a configuration problem fails at check, once per resource, before any request.
 */
import { strict as assert } from "node:assert";
import { buildCli, EXIT } from "../../cli/main";
import { configProblem, inConfigWords, readProviderConfig } from "../../provider/config";
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
