/**
 * The YAML language host on the real engine: `scripts/provision-yaml.sh` provides
 * pulumi-language-yaml (a cached build of github.com/pulumi/pulumi-yaml, built once per user), then the
 * real `pulumi` CLI runs `up` and `destroy` in a `runtime: yaml` project. The program uses no provider
 * plugin (config, variables, builtin functions, outputs), so it needs nothing but the engine and the
 * host; plugin acquisition is disabled, so a missing host fails instead of being downloaded.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ENGINE_BIN } from "./harness";
import { cliEnv, provisionYamlHost, pulumiCli, type PulumiCli } from "./pulumi-cli";

const PROGRAM = `name: yaml-host-check
runtime: yaml
description: A resource-less YAML program (no provider plugin) for the YAML language host.
config:
  greeting:
    type: string
    default: hello
variables:
  joined:
    fn::join:
      - "-"
      - - \${greeting}
        - yaml
        - \${pulumi.stack}
outputs:
  joined: \${joined}
  parts:
    fn::split:
      - "-"
      - \${joined}
  encoded:
    fn::toBase64: \${joined}
`;

describe("the YAML language host (pulumi-language-yaml) with the real CLI", function () {
  let dir = "";
  let project = "";
  let cli: PulumiCli;
  const ok = (...args: string[]): Promise<string> => cli.ok(...args);

  before(function () {
    // A cold machine builds the host from Go sources (minutes on 2 cores); then the cache answers.
    this.timeout(20 * 60_000);
    provisionYamlHost();
    const hosts = [ENGINE_BIN, dirname(realpathSync(join(ENGINE_BIN, "pulumi")))].filter((d) =>
      existsSync(join(d, "pulumi-language-yaml")),
    );
    assert.ok(
      hosts.length > 0,
      "provision-yaml.sh linked pulumi-language-yaml beside the CLI or in .engine/bin",
    );

    dir = mkdtempSync(join(tmpdir(), "account-api-yaml-host-"));
    project = join(dir, "project");
    mkdirSync(project);
    mkdirSync(join(dir, "backend"));
    writeFileSync(join(project, "Pulumi.yaml"), PROGRAM);
    cli = pulumiCli(project, cliEnv(join(dir, "backend"), join(dir, "home")));
  });

  after(() => {
    console.log(`      pulumi commands: ${cli?.took.join(", ")}`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("up sets the stack's outputs from config, variables and builtins; destroy removes them", async function () {
    this.timeout(120_000);
    await ok("stack", "init", "ci");
    await ok("config", "set", "greeting", "hi");
    const up = await ok("up", "--yes", "--skip-preview");
    assert.match(up, /1 created/, up);
    const outputs = JSON.parse(await ok("stack", "output", "--json")) as Record<string, unknown>;
    assert.deepEqual(outputs, {
      joined: "hi-yaml-ci",
      parts: ["hi", "yaml", "ci"],
      encoded: Buffer.from("hi-yaml-ci").toString("base64"),
    });

    await ok("destroy", "--yes", "--skip-preview");
    assert.deepEqual(JSON.parse(await ok("stack", "output", "--json")), {});
  });
});
