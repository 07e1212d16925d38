/**
 * What a start loads, measured where it happens: in a fresh Node process, listing `require.cache`.
 *
 * - The provider host: the runtime, one kind configured and checked, and its area's client made. No
 *   other area's client or schemas load, and undici does not (no request was sent).
 * - A program: one resource class read from the package's root. No other area's client or schemas
 *   load, nor undici. The root's laziness is made by the build (scripts/finish-dist.ts rewrites the
 *   barrels in dist/), so this half reads dist/: run `npm run build` first, as for tests/e2e.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { RESOURCE_KINDS, RUN_KINDS, type ProviderKind, type ResourceKind } from "../../provider/types";

const ROOT = resolve(__dirname, "..", "..");
const AREAS = ["builds", "email", "content", "meetings", "registrar", "search"] as const;
type Area = (typeof AREAS)[number];

/** The area whose client each kind calls. */
const AREA_OF: Record<ProviderKind, Area> = {
  BuildTrigger: "builds",
  TriggerEnvVars: "builds",
  RepoConnection: "builds",
  ZoneContentConverter: "content",
  ConfigRule: "content",
  MeetingTemplate: "meetings",
  DomainRegistration: "registrar",
  SearchInstance: "search",
  MeetingApp: "meetings",
  SearchNamespace: "search",
  SearchToken: "search",
  SendingDomain: "email",
  BuildRun: "builds",
  EmailSend: "email",
  SyncJobRun: "search",
};

/** The area an sdk module belongs to (its client or its schemas), or undefined if shared. */
function areaOfModule(file: string): Area | undefined {
  const m =
    /[/\\]sdk[/\\](?:schemas[/\\]|generated[/\\])?(builds|email|content|zone-settings|meetings|registrar|search)[-.]/.exec(
      file,
    );
  if (!m) return undefined;
  return m[1] === "zone-settings" ? "content" : AREAS.find((a) => a === m[1]);
}

interface Loaded {
  modules: string[];
  failures?: unknown;
}

/** Runs `script` in a fresh Node (with ts-node for sources) and parses the JSON it prints last. */
function child(script: string, tsNode: boolean): Promise<Loaded> {
  const args = [...(tsNode ? ["-r", "ts-node/register/transpile-only"] : []), "-e", script];
  const env = {
    ...process.env,
    ACCOUNT_API_TOKEN: "t",
    ACCOUNT_API_ACCOUNT_ID: "a",
    ACCOUNT_API_BASE_URL: "http://127.0.0.1:9",
  };
  return new Promise((done, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, env }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`${err.message}\n${stderr}`));
      done(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"));
    }),
  );
}

const LIST = `Object.keys(require.cache)`;

function assertOnly(kind: ProviderKind, loaded: Loaded): void {
  const others = loaded.modules.filter((f) => {
    const area = areaOfModule(f);
    return area !== undefined && area !== AREA_OF[kind];
  });
  assert.deepEqual(others, [], `${kind} loaded another area's modules`);
  assert.ok(
    loaded.modules.some((f) => areaOfModule(f) === AREA_OF[kind]),
    `${kind} loaded its own area (the check is not vacuous)`,
  );
  assert.deepEqual(
    loaded.modules.filter((f) => /[/\\]node_modules[/\\]undici[/\\]/.test(f)),
    [],
    `${kind}: undici loaded before any request`,
  );
}

describe("start-up: what a provider host serving one kind loads", function () {
  this.timeout(120_000);
  for (const kind of [...RESOURCE_KINDS, ...RUN_KINDS]) {
    it(`${kind}: its handler and its area, no other area's client or schemas, no undici`, async () => {
      const runtime = JSON.stringify(join(ROOT, "provider", "runtime.ts"));
      const loaded = await child(
        `const rt = require(${runtime});
         const holder = { kind: ${JSON.stringify(kind)} };
         rt.configure(holder, undefined);
         rt.call(holder, "check", [undefined, {}]).then((r) => {
           void holder.session.context.api[${JSON.stringify(AREA_OF[kind])}];
           console.log(JSON.stringify({ modules: ${LIST}, failures: r.failures }));
         });`,
        true,
      );
      // check ran the kind's handler: empty inputs are refused naming a field.
      assert.ok(
        Array.isArray(loaded.failures) && loaded.failures.length > 0,
        JSON.stringify(loaded.failures),
      );
      assertOnly(kind, loaded);
    });
  }
});

describe("start-up: what a program importing one resource class from the root loads (dist)", function () {
  this.timeout(120_000);
  const entry = join(ROOT, "dist", "index.js");
  before(() => assert.ok(existsSync(entry), `${entry} is missing: run npm run build first`));
  for (const kind of RESOURCE_KINDS) {
    it(`${kind}: its class and its area only, no undici`, async () => {
      const loaded = await child(
        `const root = require(${JSON.stringify(entry)});
         if (typeof root[${JSON.stringify(kind)}] !== "function") throw new Error("no class");
         console.log(JSON.stringify({ modules: ${LIST} }));`,
        false,
      );
      assertOnly(kind, loaded);
    });
  }

  it("the sdk's client for one area loads that area only", async () => {
    const kind: ResourceKind = "DomainRegistration";
    const loaded = await child(
      `const { AccountApi } = require(${JSON.stringify(entry)});
       const api = new AccountApi({ env: {} , baseUrl: "http://127.0.0.1:9", token: "t" });
       if (typeof api.registrar.search !== "function") throw new Error("no registrar client");
       console.log(JSON.stringify({ modules: ${LIST} }));`,
      false,
    );
    assertOnly(kind, loaded);
  });
});
