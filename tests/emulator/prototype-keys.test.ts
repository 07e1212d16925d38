/**
 * Ids and map keys that are names of Object.prototype's members, in every area: each one either
 * round-trips like any other name or gets a 4xx; never a 5xx, never a silent drop, and never a write
 * into Object.prototype.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FilterError, matches } from "../../emulator/search/retrieval";
import { Store } from "../../emulator/store";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty"] as const;
/** Names a JSON body can carry as a key and a store can keep (`__proto__` is refused, see below). */
const KEPT = NAMES.filter((n) => n !== "__proto__");

type Res = Awaited<ReturnType<EmulatorFixture["http"]>>;
type Envelope = { success: boolean; errors: { code: number; message: string }[]; result: unknown };

function ok(res: Res, what: string): unknown {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${res.text}`);
  const json = res.json as Envelope & { data?: unknown };
  return json.result ?? json.data;
}

function refused(res: Res, what: string, status?: number): void {
  assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${res.text}`);
  if (status !== undefined) assert.equal(res.status, status, `${what}: ${res.text}`);
}

/** `{"__proto__": …}` as a JSON text: an object literal would set the prototype instead of a key. */
function withProtoKey(inner: string): string {
  return `{"__proto__": ${inner}}`;
}

describe("emulator: prototype-named ids and keys", () => {
  const fx = useEmulator();
  let prototypeKeys: string[];

  beforeEach(() => {
    prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  });
  afterEach(() => {
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeKeys);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  const A = (): string => `/accounts/${fx.em.accountId}`;

  async function trigger(): Promise<string> {
    ok(await fx.http("PUT", `${A()}/workers/scripts/shop`, { body: { main_module: "index.js" } }), "upload");
    const scripts = ok(await fx.http("GET", `${A()}/workers/scripts`), "scripts") as { tag: string }[];
    const repo = ok(
      await fx.http("PUT", `${A()}/builds/repos/connections`, {
        body: {
          provider_type: "github",
          provider_account_id: "acme",
          provider_account_name: "Acme",
          repo_id: "shop",
          repo_name: "shop",
        },
      }),
      "repo",
    ) as { repo_connection_uuid: string };
    const tokens = ok(await fx.http("GET", `${A()}/builds/tokens`), "tokens") as {
      build_token_uuid: string;
    }[];
    const t = ok(
      await fx.http("POST", `${A()}/builds/triggers`, {
        body: {
          external_script_id: scripts[0]!.tag,
          repo_connection_uuid: repo.repo_connection_uuid,
          build_token_uuid: tokens[0]!.build_token_uuid,
          trigger_name: "p",
          build_command: "",
          deploy_command: "d",
          root_directory: "/",
          branch_includes: ["main"],
        },
      }),
      "trigger",
    ) as { trigger_uuid: string };
    return t.trigger_uuid;
  }

  it("builds: unknown trigger ids are 404, variable names round-trip, __proto__ is refused by name", async () => {
    for (const name of NAMES) {
      refused(await fx.http("GET", `${A()}/builds/triggers/${name}/environment_variables`), name, 404);
      refused(
        await fx.http("PATCH", `${A()}/builds/triggers/${name}`, { body: { trigger_name: "x" } }),
        name,
        404,
      );
      refused(await fx.http("GET", `${A()}/builds/builds/${name}`), name, 404);
      refused(await fx.http("GET", `${A()}/workers/scripts/${name}/deployments`), name, 404);
    }
    const uuid = await trigger();
    const vars = Object.fromEntries(KEPT.map((n) => [n, { value: `v-${n}`, is_secret: false }]));
    ok(
      await fx.http("PATCH", `${A()}/builds/triggers/${uuid}/environment_variables`, { body: vars }),
      "patch",
    );
    const got = ok(await fx.http("GET", `${A()}/builds/triggers/${uuid}/environment_variables`), "get");
    const at = new Date(fx.clock.now()).toISOString();
    assert.deepEqual(
      got,
      Object.fromEntries(KEPT.map((n) => [n, { value: `v-${n}`, is_secret: false, created_on: at }])),
    );
    ok(await fx.http("DELETE", `${A()}/builds/triggers/${uuid}/environment_variables/constructor`), "delete");
    refused(
      await fx.http("DELETE", `${A()}/builds/triggers/${uuid}/environment_variables/constructor`),
      "again",
      404,
    );
    refused(
      await fx.http("DELETE", `${A()}/builds/triggers/${uuid}/environment_variables/valueOf`),
      "inherited",
      404,
    );

    const proto = await fx.http("PATCH", `${A()}/builds/triggers/${uuid}/environment_variables`, {
      body: withProtoKey(`{"value": "x", "is_secret": false}`),
    });
    refused(proto, "__proto__ variable", 400);
    assert.match(JSON.stringify(proto.json), /__proto__/);

    for (const name of KEPT) {
      ok(await fx.http("PUT", `${A()}/workers/scripts/${name}`, { body: { main_module: "index.js" } }), name);
    }
    const scripts = ok(await fx.http("GET", `${A()}/workers/scripts`), "scripts") as { id: string }[];
    assert.deepEqual(scripts.map((s) => s.id).sort(), [...KEPT, "shop"].sort());
  });

  it("email: accounts and sender domains named like prototype members stay apart", async () => {
    for (const name of NAMES) {
      const before = ok(await fx.http("GET", `/__emulator/email/accounts/${name}`), name) as {
        entitled: boolean;
      };
      assert.equal(before.entitled, true);
      ok(await fx.http("PATCH", `/__emulator/email/accounts/${name}`, { body: { entitled: false } }), name);
      const after = ok(await fx.http("GET", `/__emulator/email/accounts/${name}`), name) as {
        entitled: boolean;
      };
      assert.equal(after.entitled, false);
      refused(
        await fx.http("PATCH", `/__emulator/email/accounts/${name}`, { body: { polluted: true } }),
        name,
        400,
      );
      refused(
        await fx.http("DELETE", `/__emulator/email/accounts/${fx.em.accountId}/domains/${name}`),
        name,
        404,
      );
      refused(
        await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/${name}`),
        name,
        400,
      );
    }
    const fresh = ok(await fx.http("GET", `/__emulator/email/accounts/${fx.em.accountId}`), "own") as {
      entitled: boolean;
    };
    assert.equal(fresh.entitled, true);
  });

  it("content: unknown zone and hostname ids are 404; custom_metadata keys round-trip", async () => {
    for (const name of NAMES) {
      refused(await fx.http("GET", `/zones/${name}`), name, 404);
      refused(
        await fx.http("PATCH", `/zones/${name}/settings/content_converter`, { body: { value: "on" } }),
        name,
        404,
      );
    }
    const zone = ok(
      await fx.http("POST", "/zones", { body: { name: "proto.com", account: { id: fx.em.accountId } } }),
      "zone",
    ) as { id: string };
    for (const name of NAMES)
      refused(await fx.http("GET", `/zones/${zone.id}/custom_hostnames/${name}`), name, 404);
    const metadata = Object.fromEntries(KEPT.map((n) => [n, `m-${n}`]));
    const created = ok(
      await fx.http("POST", `/zones/${zone.id}/custom_hostnames`, {
        body: { hostname: "shop.example.net", custom_metadata: metadata },
      }),
      "hostname",
    ) as { id: string; custom_metadata: Record<string, string> };
    assert.deepEqual(created.custom_metadata, metadata);
    const proto = await fx.http("PATCH", `/zones/${zone.id}/custom_hostnames/${created.id}`, {
      body: `{"custom_metadata": ${withProtoKey(`"x"`)}}`,
    });
    refused(proto, "__proto__ metadata", 400);
    assert.match(JSON.stringify(proto.json), /__proto__/);
  });

  it("meetings: apps named like prototype members keep their own meetings", async () => {
    for (const app of NAMES) {
      const base = `${A()}/realtime/kit/${app}/meetings`;
      refused(await fx.http("GET", `${base}/constructor`), app, 404);
      refused(await fx.http("PATCH", `${base}/__proto__`, { body: { title: "polluted" } }), app, 404);
      const m = ok(await fx.http("POST", base, { body: { title: `in ${app}` } }), app) as { id: string };
      const list = ok(await fx.http("GET", base), app) as { id: string; title: string }[];
      assert.deepEqual(
        list.map((x) => [x.id, x.title]),
        [[m.id, `in ${app}`]],
      );
    }
  });

  it("registrar: prototype-named domains and extensions are 4xx, never 5xx", async () => {
    const base = `${A()}/registrar`;
    for (const name of NAMES) {
      refused(await fx.http("GET", `${base}/registrations/${name}`), name);
      refused(await fx.http("PATCH", `${base}/registrations/${name}`, { body: { auto_renew: true } }), name);
      refused(
        await fx.http("POST", `${base}/registrations`, { body: { domain_name: `shop.${name}` } }),
        name,
      );
    }
    const check = ok(
      await fx.http("POST", `${base}/domain-check`, {
        body: { domains: KEPT.map((n) => `shop.${n.toLowerCase()}`) },
      }),
      "check",
    ) as { domains: { name: string; registrable: boolean; reason?: string }[] };
    for (const d of check.domains)
      assert.deepEqual([d.registrable, d.reason], [false, "extension_not_supported"]);
  });

  it("search: namespaces and instances named like prototype members round-trip", async () => {
    const NS = `${A()}/ai-search/namespaces`;
    const names = NAMES.map((n) => n.toLowerCase()).filter((n) => /^[a-z0-9_-]+$/.test(n));
    for (const name of names) {
      refused(await fx.http("GET", `${NS}/${name}`), name, 404);
      refused(await fx.http("PUT", `${NS}/${name}`, { body: { description: "polluted" } }), name, 404);
      ok(await fx.http("POST", NS, { body: { name } }), name);
      const put = ok(
        await fx.http("PUT", `${NS}/${name}`, { body: { public_endpoint_params: { polluted: true } } }),
        name,
      ) as { name: string; public_endpoint_params: unknown };
      assert.deepEqual([put.name, put.public_endpoint_params], [name, { polluted: true }]);
    }
    const listed = ok(await fx.http("GET", NS), "list") as { name: string }[];
    assert.deepEqual(listed.map((n) => n.name).sort(), ["default", ...names].sort());
    const instances = `${A()}/ai-search/instances`;
    for (const id of names) refused(await fx.http("GET", `${instances}/${id}`), id, 404);
  });

  it("the state file keeps prototype-named keys and reads them back without prototypes", async () => {
    const uuid = await trigger();
    const vars = Object.fromEntries(KEPT.map((n) => [n, { value: n, is_secret: false }]));
    ok(
      await fx.http("PATCH", `${A()}/builds/triggers/${uuid}/environment_variables`, { body: vars }),
      "patch",
    );
    const file = join(mkdtempSync(join(tmpdir(), "proto-")), "state.json");
    writeFileSync(file, JSON.stringify(fx.em.store.snapshot()));
    const store = new Store({ accountId: fx.em.accountId, tokens: [], file });
    const state = store.area("builds", () => ({}));
    assert.equal(Object.getPrototypeOf(state), null);
    const reloaded = JSON.parse(JSON.stringify(state)) as {
      accounts: Record<string, { triggers: Record<string, { environment_variables: object }> }>;
    };
    assert.deepEqual(
      Object.keys(reloaded.accounts[fx.em.accountId]!.triggers[uuid]!.environment_variables),
      KEPT,
    );
  });

  it("every route with an id in its path: a prototype member's name is no id (never 2xx on a read, never 5xx)", async function () {
    this.timeout(120_000);
    const uuid = await trigger();
    const tag = (ok(await fx.http("GET", `${A()}/workers/scripts`), "scripts") as { tag: string }[])[0]!.tag;
    const zone = ok(
      await fx.http("POST", "/zones", { body: { name: "sweep.com", account: { id: fx.em.accountId } } }),
      "zone",
    ) as { id: string };
    const host = ok(
      await fx.http("POST", `/zones/${zone.id}/custom_hostnames`, { body: { hostname: "a.example.net" } }),
      "hostname",
    ) as { id: string };
    const meeting = ok(
      await fx.http("POST", `${A()}/realtime/kit/app/meetings`, { body: { title: "m" } }),
      "meeting",
    ) as { id: string };
    ok(await fx.http("POST", `${A()}/ai-search/instances`, { body: { id: "kb" } }), "instance");
    const job = ok(await fx.http("POST", `${A()}/ai-search/instances/kb/jobs`), "job") as { id: string };
    // Real ids for the other parameters, so each look-up of the swept one is reached.
    const real: Record<string, string> = {
      account_id: fx.em.accountId,
      script_name: "shop",
      worker_tag: tag,
      trigger_uuid: uuid,
      zone_id: zone.id,
      setting_id: "content_converter",
      phase: "http_config_settings",
      custom_hostname_id: host.id,
      app_id: "app",
      meeting_id: meeting.id,
      namespace: "default",
      name: "default",
      id: "kb",
      job_id: job.id,
    };
    // Names a caller may freely choose, so any name reads as an empty or fresh one; and the
    // emulator's own control routes that make what they are asked for.
    const free = new Set(["app_id", "provider_type", "provider_account_id", "repo_id"]);
    const makes = /^\/__emulator\/(email\/accounts\/|registrar\/)/;
    const names = [...NAMES, "valueOf", "__defineGetter__", "isPrototypeOf"];
    let reads = 0;
    // Reads first: a write may make what a later read asks for (a script named `constructor`).
    const routes = [...fx.em.routes].sort((a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"));
    for (const route of routes) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const swept = route.method === "GET" ? params : params.filter((p) => p !== "account_id");
      for (const param of swept) {
        for (const name of names) {
          const path = route.url
            .replace(/^\/client\/v4/, "")
            .replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(p === param ? name : (real[p] ?? "x")))
            .replace(/\*$/, "x");
          const what = `${route.method} ${route.url} with ${param}=${name}`;
          const res = await fx.http(
            route.method,
            path,
            route.method === "GET" ? {} : { body: { value: "on" } },
          );
          assert.ok(
            res.status < 500 || /only POST is implemented/.test(res.text),
            `${what}: ${res.status} ${res.text}`,
          );
          if (route.method !== "GET" || free.has(param) || makes.test(route.url)) continue;
          reads++;
          assert.ok(res.status >= 400, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
        }
      }
    }
    assert.ok(reads > 300, `reads swept: ${reads}`);
  });

  it("content: settings named like prototype members are unknown settings, 404 on read and edit", async () => {
    const zone = ok(
      await fx.http("POST", "/zones", { body: { name: "settings.com", account: { id: fx.em.accountId } } }),
      "zone",
    ) as { id: string };
    for (const name of [...NAMES, "valueOf", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString"]) {
      const at = `/zones/${zone.id}/settings/${encodeURIComponent(name)}`;
      refused(await fx.http("GET", at), name, 404);
      refused(await fx.http("PATCH", at, { body: { value: "on" } }), name, 404);
    }
    ok(await fx.http("GET", `/zones/${zone.id}/settings/content_converter`), "a catalogued one");
  });

  it("search: a filter operator or item key named like a prototype member is no operator and no item", async () => {
    const base = `${A()}/ai-search/namespaces/default/instances`;
    ok(await fx.http("POST", base, { body: { id: "kb" } }), "instance");
    const fields = Object.assign(Object.create(null) as Record<string, unknown>, { folder: "a" });
    for (const op of ["$constructor", "$toString", "$__proto__", "$hasOwnProperty", "$valueOf"])
      assert.throws(() => matches({ folder: { [op]: "a" } }, fields), FilterError, op);
    for (const type of ["constructor", "toString", "valueOf"])
      assert.throws(() => matches({ type, key: "folder", value: "a" }, fields), FilterError, type);
    assert.equal(matches({ folder: { $eq: "a" } }, fields), true);
    for (const key of KEPT)
      refused(await fx.http("PUT", `${base}/kb/items`, { body: { key, next_action: "INDEX" } }), key, 404);
  });
});
