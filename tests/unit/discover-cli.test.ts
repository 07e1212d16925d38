/**
 * `account-api discover` against an emulator holding hostile text (docs/cli.md#discover): the programs
 * it writes hold exactly what was read (the YAML one read back by pulumi-yaml's own loader), a secret's
 * placeholder key is its own, it never overwrites a file or writes through a link unless asked
 * (--force, and a link never), every bad argument exits 64 naming it, and the text output shows remote
 * names with their controls escaped.
 */
import { strict as assert } from "node:assert";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DiscoverResult } from "../../cli/discover";
import { productionTriggerBody, seedBuildWorld, type BuildWorld } from "../helpers/builds";
import { runCli } from "../helpers/cli";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";
import { loadYamlPrograms, refTo, untag } from "../helpers/yaml-roundtrip";

const VARS_NAME = "trigger-env-vars-variables-of-shop-production";
/** The placeholder key main gave the secret API_KEY: a build command naming it read the secret. */
const API_KEY_REF = `\${${VARS_NAME}-API_KEY}`;

describe("account-api discover: what it writes and prints", function () {
  this.timeout(120_000);
  const fx = useEmulator();
  let scratch = "";
  let world: BuildWorld;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "discover-cli-"));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** A trigger whose build command names the secret's placeholder, and secret variables S.1, S-1, API_KEY. */
  async function seedTrigger(
    f: EmulatorFixture,
    over: { buildCommand?: string; vars?: Record<string, string> } = {},
  ) {
    world = await seedBuildWorld(f);
    const body = productionTriggerBody(world, {
      build_command: over.buildCommand ?? `echo ${API_KEY_REF} $\${X} \${`,
    });
    const trigger = (await f.api.builds.triggers.create({}, body)).trigger_uuid;
    const variables = Object.fromEntries(
      Object.entries(over.vars ?? { "S.1": "a", "S-1": "b", API_KEY: "k" }).map(([k, v]) => [
        k,
        { value: v, is_secret: true },
      ]),
    );
    await f.api.builds.environmentVariables.upsert({ triggerUuid: trigger }, variables);
    return trigger;
  }

  /** A written YAML program as pulumi-yaml and the CLI read it: Main.yaml and Pulumi.yaml. */
  const programIn = (dir: string) => ({
    source: readFileSync(join(dir, "Main.yaml"), "utf8"),
    project: readFileSync(join(dir, "Pulumi.yaml"), "utf8"),
  });

  const discover = (...args: string[]) => runCli(fx, ["discover", "--json", ...args]);

  it("writes a YAML program that holds every string as read: a `${…}` in a build command stays text", async () => {
    await seedTrigger(fx);
    const dir = join(scratch, "yaml");
    const run = await discover("--write-program", dir, "--language", "yaml", "--project", "adopt");
    assert.equal(run.code, 0, run.err);
    const written = (run.json as DiscoverResult).written!;
    const keys = written.placeholders.map((p) => p.key);
    assert.equal(new Set(keys).size, 3, `three secrets, three keys: ${keys.join(", ")}`);

    const [loaded] = loadYamlPrograms([{ id: "p", ...programIn(dir) }]);
    assert.deepEqual(loaded!.errors, [], "the program loads");
    const program = loaded!.program!;
    assert.deepEqual(program.config.map((c) => c.key).sort(), [...keys].sort());
    const trigger = program.resources.find((r) => r.type === "account-api:index:BuildTrigger")!;
    const props = untag(trigger.properties) as Record<string, unknown>;
    assert.equal(props.buildCommand, `echo ${API_KEY_REF} $\${X} \${`, "the command as the API holds it");
    const vars = program.resources.find((r) => r.type === "account-api:index:TriggerEnvVars")!;
    const values = untag(vars.properties) as { variables: Record<string, { value: unknown }> };
    // Each secret reads its own key: S.1 and S-1 are two secrets.
    const refs = Object.entries(values.variables).map(([k, v]) => [k, v.value]);
    assert.deepEqual(
      Object.fromEntries(refs),
      Object.fromEntries(
        written.placeholders.map((p) => [/variable (\S+) /.exec(p.about)![1], refTo(p.key)]),
      ),
    );
  });

  it("gives S.1 and S-1 distinct placeholder keys, the same on every run", async () => {
    await seedTrigger(fx);
    const keysOf = async (dir: string) => {
      const run = await discover("--write-program", join(scratch, dir));
      assert.equal(run.code, 0, run.err);
      return (run.json as DiscoverResult).written!.placeholders.map((p) => p.key);
    };
    const first = await keysOf("a");
    assert.equal(new Set(first).size, first.length, first.join(", "));
    assert.deepEqual(await keysOf("b"), first);
    const index = readFileSync(join(scratch, "a", "index.ts"), "utf8");
    for (const k of first) assert.ok(index.includes(`config.requireSecret("${k}")`), k);
  });

  it("refuses to overwrite the program's files or the import file, unless --force; nothing half-written", async () => {
    await seedTrigger(fx);
    const dir = join(scratch, "prog");
    mkdirSync(dir);
    writeFileSync(join(dir, "Pulumi.yaml"), "mine\n");
    const importFile = join(scratch, "import.json");

    let run = await discover("--write-program", dir, "--import-file", importFile);
    assert.equal(run.code, 64, run.err);
    assert.match(run.err, /Pulumi\.yaml.*already exists.*--force/);
    assert.equal(readFileSync(join(dir, "Pulumi.yaml"), "utf8"), "mine\n");
    assert.deepEqual(readdirSync(dir), ["Pulumi.yaml"], "no other file of the program was written");
    assert.equal(existsSync(importFile), false, "nor the import file");

    // The import file alone existing stops the program too.
    rmSync(join(dir, "Pulumi.yaml"));
    writeFileSync(importFile, "theirs\n");
    run = await discover("--write-program", dir, "--import-file", importFile);
    assert.equal(run.code, 64);
    assert.match(run.err, /--import-file: .*import\.json already exists/);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(readFileSync(importFile, "utf8"), "theirs\n");

    writeFileSync(join(dir, "index.ts"), "mine\n");
    run = await discover("--write-program", dir, "--import-file", importFile, "--force");
    assert.equal(run.code, 0, run.err);
    assert.match(readFileSync(join(dir, "index.ts"), "utf8"), /new BuildTrigger\(/);
    assert.match(readFileSync(importFile, "utf8"), /"resources"/);
  });

  it("never writes through a link planted in the folder, not even with --force", async () => {
    await seedTrigger(fx);
    const dir = join(scratch, "prog");
    mkdirSync(dir);
    const outside = join(scratch, "outside.ts");
    symlinkSync(outside, join(dir, "index.ts"));
    const linkedImport = join(scratch, "import.json");
    symlinkSync(join(scratch, "elsewhere.json"), linkedImport);
    for (const extra of [[], ["--force"]]) {
      const run = await discover("--write-program", dir, "--import-file", linkedImport, ...extra);
      assert.equal(run.code, 64, run.err);
      assert.match(run.err, /index\.ts is a symbolic link/);
      assert.match(run.err, /import\.json is a symbolic link/);
      assert.equal(existsSync(outside), false, "nothing was written outside the folder");
      assert.equal(existsSync(join(scratch, "elsewhere.json")), false);
      assert.deepEqual(readdirSync(dir), ["index.ts"], "no file of the program was written");
    }
  });

  it("exits 64 naming the argument for every bad input", async () => {
    await seedTrigger(fx);
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const cases: [string[], RegExp][] = [
      [
        ["--write-program", join(scratch, "p"), "--project", "x\nname: evil"],
        /^error: --project "x\\nname: evil": .*letters, digits/,
      ],
      [["--write-program", join(scratch, "p"), "--project", ""], /^error: --project "": .*may not be empty/],
      [
        ["--write-program", join(scratch, "p"), "--project", "x".repeat(101)],
        /--project "x+": .*at most 100/,
      ],
      [["--project", "p"], /^error: --project: only with --write-program/],
      [["--import-file", scratch], /^error: --import-file .*: is a folder, not a file/],
      [
        ["--import-file", join(file, "import.json")],
        /^error: --import-file .*: its folder .* does not exist/,
      ],
      [
        ["--write-program", join(file, "sub")],
        /^error: --write-program .*a-file is a file, so no folder can be made under it/,
      ],
      [["--write-program", file], /^error: --write-program .*: is a file, not a folder/],
      [["--zone", "no-such-zone.example"], /^error: --zone no-such-zone\.example: no zone of the account/],
      [
        ["--write-program", scratch, "--import-file", join(scratch, "index.ts")],
        /^error: --import-file .*: is a file of the program/,
      ],
    ];
    mkdirSync(join(scratch, "shadowed"));
    writeFileSync(join(scratch, "shadowed", "Main.json"), "{}");
    cases.push([
      ["--write-program", join(scratch, "shadowed"), "--language", "yaml"],
      /^error: --write-program: .*Main\.json exists and would be read instead of the program written/,
    ]);
    for (const [args, message] of cases) {
      const run = await runCli(fx, ["discover", ...args]);
      assert.equal(run.code, 64, `${JSON.stringify(args)}: exit ${run.code}: ${run.err}`);
      assert.match(run.err, message, JSON.stringify(args));
    }
    assert.equal(existsSync(join(scratch, "p")), false, "no program folder was made");
  });

  it("quotes the project name and derives a valid one from any folder name", async () => {
    await seedTrigger(fx);
    for (const [folder, project] of [
      ["123", "123"],
      ["my proj!", "my-proj-"],
      ["true", "true"],
    ] as const) {
      const dir = join(scratch, folder);
      const run = await discover("--write-program", dir, "--language", "yaml");
      assert.equal(run.code, 0, run.err);
      const [loaded] = loadYamlPrograms([{ id: folder, ...programIn(dir) }]);
      assert.deepEqual(loaded!.errors, []);
      assert.equal(loaded!.project, project, "the CLI reads the name as a string");
    }
  });

  it("refuses (exit 1) a value the YAML program cannot hold, naming the object and the field, writing nothing", async () => {
    const trigger = await seedTrigger(fx, { vars: { "fn::secret": "v" } });
    const dir = join(scratch, "yaml");
    const run = await runCli(fx, ["discover", "--write-program", dir, "--language", "yaml"]);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.err,
      new RegExp(
        `^error: a yaml program cannot hold variables\\["fn::secret"\\] of TriggerEnvVars ${trigger} \\(resource ${VARS_NAME}\\): .*fn::.*--language typescript`,
      ),
    );
    assert.equal(existsSync(dir), false, "nothing written");
    // TypeScript holds it.
    const ts = await runCli(fx, ["discover", "--write-program", dir]);
    assert.equal(ts.code, 0, ts.err);
    assert.match(readFileSync(join(dir, "index.ts"), "utf8"), /"fn::secret": \{/);
  });

  it("shows remote names with their controls escaped in text, and exactly in JSON", async () => {
    const title = "standup\u001b]52;c;ZXZpbA==\u0007\u001b[2K\r\u202eevil";
    await fx.api.meetings.meetings.create({ appId: "app" }, { title });
    const text = await runCli(fx, ["discover", "--app", "app"]);
    assert.equal(text.code, 0, text.err);
    // eslint-disable-next-line no-control-regex -- matching controls is the point
    assert.doesNotMatch(text.out, /[\u001b\u0007\r\u202e]/, "no control character reaches the terminal");
    assert.ok(text.out.includes("standup\\x1b]52;c;ZXZpbA==\\x07\\x1b[2K\\r\\u202eevil"), text.out);
    const json = await discover("--app", "app");
    const names = (json.json as DiscoverResult).objects.map((o) => o.name);
    assert.ok(names.includes(`app/${title}`), "the JSON holds the title exactly");
  });
});
