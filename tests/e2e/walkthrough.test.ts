/**
 * The README's "A first program", run exactly as written, as a new user would: its shell blocks and
 * its `index.ts` in order, in one bash, from the packed tarball into a fresh folder, against the
 * emulator it starts, with the `pulumi` CLI and its Node language host (`npm run setup`) on PATH.
 * Then what a user would check: the objects exist, a second `up` changes and writes nothing, and a
 * destroy leaves no trigger behind.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ENGINE_BIN, REPO_ROOT } from "./harness";

/** The README's walkthrough as one bash script: shell blocks as they are, `index.ts` written out. */
export function walkthroughScript(readme: string): { script: string; project: string; tarballs: string[] } {
  const start = readme.indexOf("## A first program");
  const end = readme.indexOf("\n## ", start + 1);
  assert.ok(start >= 0 && end > start, "the README has a section 'A first program'");
  const section = readme.slice(start, end);
  const parts: string[] = [];
  for (const m of section.matchAll(/(`index\.ts`:\s*)?```(sh|ts)\n([\s\S]*?)```/g)) {
    const [, named, lang, body = ""] = m;
    if (lang === "sh") parts.push(body);
    else if (named) parts.push(`cat > index.ts <<'INDEX_TS'\n${body}INDEX_TS\n`);
  }
  assert.ok(
    parts.some((p) => p.startsWith("cat > index.ts")),
    "the walkthrough writes index.ts",
  );
  const project = /mkdir (\S+) && cd \1/.exec(section)?.[1];
  // The provider's package and the emulator's (its own package since issue 27).
  const tarballs = [...section.matchAll(/npm install (?:--save-dev )?(\S+\.tgz)/g)].map((m) => m[1]!);
  assert.ok(project && tarballs.length === 2, "the walkthrough names its project folder and both tarballs");
  return { script: `set -euo pipefail\n${parts.join("\n")}`, project, tarballs };
}

describe("the README's first program, exactly as written (packed tarball, fresh folder, real CLI)", function () {
  this.timeout(900_000);
  const { script, project, tarballs } = walkthroughScript(readFileSync(join(REPO_ROOT, "README.md"), "utf8"));
  const home = mkdtempSync(join(tmpdir(), "walkthrough-home-"));
  let group: number | undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The CLI and its language host, and the Node 22+ that runs this test, first; a clean Pulumi home.
    PATH: [ENGINE_BIN, dirname(process.execPath), process.env.PATH ?? ""].join(":"),
    PULUMI_HOME: join(home, ".pulumi"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  // Nothing of this run's own configuration may reach the walkthrough's.
  for (const k of Object.keys(env))
    if (k.startsWith("ACCOUNT_API_") || k.startsWith("PULUMI_BACKEND")) delete env[k];
  delete env.PULUMI_CONFIG_PASSPHRASE;

  const clean = (): void => {
    rmSync(project, { recursive: true, force: true });
    for (const tarball of tarballs) rmSync(tarball, { force: true });
  };
  before(clean);
  after(() => {
    if (group !== undefined) {
      try {
        process.kill(-group, "SIGTERM"); // the emulator the walkthrough left running
      } catch {
        // already gone
      }
    }
    clean();
    rmSync(home, { recursive: true, force: true });
  });

  /** A command in the project as the user would type it next, with the walkthrough's variables. */
  const next = (command: string): { status: number | null; out: string } => {
    const r = spawnSync(
      "bash",
      [
        "-c",
        `cd ${project} && export ACCOUNT_API_BASE_URL=http://127.0.0.1:8787/client/v4 ACCOUNT_API_ACCOUNT_ID=demo ACCOUNT_API_TOKEN=demo-token PULUMI_BACKEND_URL="file://$PWD" PULUMI_CONFIG_PASSPHRASE=demo && ${command}`,
      ],
      { env, encoding: "utf8", timeout: 300_000 },
    );
    const out = `${r.stdout}${r.stderr}`;
    process.stdout.write(out.replace(/^(?=.)/gm, "      | "));
    return { status: r.status, out };
  };
  const api = async (path: string): Promise<unknown> => {
    const res = await fetch(`http://127.0.0.1:8787${path}`, {
      headers: { authorization: "Bearer demo-token" },
    });
    return ((await res.json()) as { result: unknown }).result;
  };
  const writes = async (): Promise<number> => {
    const log = (await api("/__emulator/requests")) as { method: string; url: string }[];
    return log.filter((r) => r.method !== "GET").length;
  };

  it("runs start to finish, and a second up writes nothing", async () => {
    const started = Date.now();
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("bash", ["-c", script], {
        cwd: REPO_ROOT,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      group = child.pid;
      const echo = (chunk: Buffer): void => {
        process.stdout.write(chunk.toString().replace(/^(?=.)/gm, "      | "));
      };
      child.stdout.on("data", echo);
      child.stderr.on("data", echo);
      child.once("error", reject);
      // 'exit', not 'close': the emulator it starts in the background keeps the pipes open.
      child.once("exit", resolve);
    });
    console.log(`      [figure] the walkthrough took ${Math.round((Date.now() - started) / 1000)} s`);
    assert.equal(status, 0, "every command of the walkthrough succeeds");

    const scripts = (await api("/client/v4/accounts/demo/workers/scripts")) as { id: string; tag: string }[];
    const shop = scripts.find((s) => s.id === "shop");
    assert.ok(shop, "the seed made the script");
    const triggers = (await api(`/client/v4/accounts/demo/builds/workers/${shop.tag}/triggers`)) as unknown[];
    assert.equal(triggers.length, 1, "the program made its trigger");
    const builds = (await api(`/client/v4/accounts/demo/builds/workers/${shop.tag}/builds`)) as unknown[];
    assert.equal(builds.length, 1, "the BuildRun started one build");

    const before = await writes();
    const again = next("pulumi up --yes");
    assert.equal(again.status, 0);
    assert.match(again.out, /5 unchanged/);
    assert.equal(await writes(), before, "a second up writes nothing");

    const down = next("pulumi destroy --yes");
    assert.equal(down.status, 0);
    assert.deepEqual(await api(`/client/v4/accounts/demo/builds/workers/${shop.tag}/triggers`), []);
  });
});
