import { strict as assert } from "node:assert";
import { seedBuildWorld as seed } from "../helpers/builds";
import { UNKNOWN } from "../../provider/core/values";
import * as bt from "../../provider/resources/build-trigger";
import type { HandlerContext } from "../../provider/types";
import type { TriggerUpdateBody } from "../../sdk/builds";
import { TriggerUpdateBodySchema } from "../../sdk/schemas/builds";
import { errorFromResponse } from "../../sdk/errors";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const TAG = "0123456789abcdef0123456789abcdef";
const REPO = "00000000-0000-4000-8000-00000000000a";
const TOKEN = "00000000-0000-4000-8000-00000000000b";
const BASE = { externalScriptId: TAG, repoConnectionUuid: REPO, buildTokenUuid: TOKEN };

describe("BuildTrigger: check without the API", () => {
  it("names the input and the rule of each failure, all at once, before any request", async () => {
    const table: [Record<string, unknown>, string[]][] = [
      [
        { ...BASE },
        [
          'branchIncludes: required unless kind is set ("production" defaults to ["main"], "preview" to ["*"])',
        ],
      ],
      [{ ...BASE, kind: "staging" }, ['kind: must be "production" or "preview"']],
      [
        { ...BASE, kind: "preview", branchIncludes: ["main"] },
        ["kind: a preview trigger needs a branch pattern with '*' in branchIncludes"],
      ],
      [
        { ...BASE, kind: "production", branchIncludes: ["*"] },
        ["kind: a production trigger names its branches in branchIncludes without '*'"],
      ],
      [
        { repoConnectionUuid: REPO, buildTokenUuid: TOKEN, kind: "production" },
        ["scriptName: required (or externalScriptId, the script's tag)"],
      ],
      [
        { ...BASE, scriptName: "shop", kind: "production" },
        ["scriptName: give either scriptName or externalScriptId, not both"],
      ],
      [{ ...BASE, kind: "production", importId: "nope" }, ["importId: must be a UUID"]],
      [
        { ...BASE, kind: "production", buildTokenUuid: "x", rootDirectory: 3, extra: true },
        ["extra: is not a known field", "buildTokenUuid: must be a UUID", "rootDirectory: must be a string"],
      ],
      [
        { ...BASE, externalScriptId: "shop", kind: "production" },
        [
          "externalScriptId: must be the script's tag (a UUID, field `tag` of the script listing), not its name",
        ],
      ],
    ];
    for (const [news, reasons] of table) {
      const r = await bt.handler.check(undefined, news, offline);
      assert.deepEqual(
        [...(r.failures ?? []).map((f) => f.reason)].sort(),
        [...reasons].sort(),
        JSON.stringify(news),
      );
    }
  });

  it("leaves unknown values for the real run", async () => {
    const r = await bt.handler.check(
      undefined,
      { ...BASE, externalScriptId: UNKNOWN, kind: UNKNOWN },
      offline,
    );
    assert.deepEqual(r.failures, []);
  });

  it("fills the defaults of a production trigger from its kind", () => {
    const i = bt.normalize(
      {
        ...BASE,
        kind: "production",
        buildCommand: "",
        rootDirectory: "/",
        branchExcludes: [],
        pathIncludes: ["*"],
        pathExcludes: [],
        buildCachingEnabled: true,
      },
      () => true,
    );
    assert.deepEqual(
      {
        kind: i.kind,
        triggerName: i.triggerName,
        branchIncludes: i.branchIncludes,
        deployCommand: i.deployCommand,
      },
      {
        kind: "production",
        triggerName: "production",
        branchIncludes: ["main"],
        deployCommand: "npx wrangler deploy",
      },
    );
  });

  it("derives the kind from branchIncludes; preview uploads a version without replacing the live deployment", () => {
    const i = bt.normalize(
      {
        ...BASE,
        branchIncludes: ["*"],
        buildCommand: "",
        rootDirectory: "/",
        branchExcludes: ["main"],
        pathIncludes: ["*"],
        pathExcludes: [],
        buildCachingEnabled: true,
      },
      () => true,
    );
    assert.equal(i.kind, "preview");
    assert.equal(i.deployCommand, "npx wrangler versions upload");
  });

  it("takes a 400 or a 409 from the create as a slot that may be held, and nothing else", () => {
    const err = (status: number) =>
      errorFromResponse({ status, errors: [{ code: 12002, message: "m" }], method: "POST", path: "/t" });
    assert.deepEqual(
      [400, 409, 403, 404, 422, 500].map((s) => bt.refusedAsHeld(err(s))),
      [true, true, false, false, false, false],
    );
    assert.equal(bt.refusedAsHeld(new Error("x")), false);
  });
});

describe("BuildTrigger: diff", () => {
  const olds: bt.BuildTriggerOutputs = {
    ...BASE,
    kind: "production",
    triggerName: "production",
    branchIncludes: ["main"],
    deployCommand: "npx wrangler deploy",
    buildCommand: "",
    rootDirectory: "/",
    branchExcludes: [],
    pathIncludes: ["*"],
    pathExcludes: [],
    buildCachingEnabled: true,
    triggerUuid: "t",
  };
  const table: [string, Partial<bt.BuildTriggerInputs>, boolean, string[], boolean][] = [
    ["nothing", {}, false, [], false],
    ["buildCommand", { buildCommand: "make" }, true, [], false],
    ["branchIncludes and kind", { branchIncludes: ["*"], kind: "preview" }, true, [], false],
    [
      "repoConnectionUuid",
      { repoConnectionUuid: "00000000-0000-4000-8000-0000000000ff" },
      true,
      ["repoConnectionUuid"],
      true,
    ],
    [
      "externalScriptId",
      { externalScriptId: "fedcba9876543210fedcba9876543210" },
      true,
      ["externalScriptId"],
      true,
    ],
    ["accountId", { accountId: "other" }, true, ["accountId"], true],
    ["importId only", { importId: "00000000-0000-4000-8000-0000000000ee" }, false, [], false],
    ["scriptName naming the same script", { scriptName: "shop" }, false, [], false],
    ["an unknown build command", { buildCommand: UNKNOWN }, true, [], false],
  ];
  for (const [label, change, changes, replaces, dbr] of table) {
    it(`on a change of ${label}`, async () => {
      const d = await bt.handler.diff("t", olds, { ...olds, ...change }, offline);
      assert.deepEqual(d, { changes, replaces, deleteBeforeReplace: dbr });
    });
  }
});

describe("BuildTrigger: handler on the emulator", () => {
  const fx = useEmulator();
  const checked = (
    ctx: HandlerContext,
    news: Record<string, unknown>,
    olds?: Partial<bt.BuildTriggerInputs>,
  ) => bt.handler.check(olds, news, ctx);

  /** A production trigger of the seeded script, by tag, checked and created. */
  async function createProduction(s: { tag: string; repo: string; token: string }, ctx: HandlerContext) {
    const { inputs } = await checked(ctx, {
      externalScriptId: s.tag,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
    });
    return { inputs, ...(await bt.handler.create(inputs!, ctx)) };
  }

  it("resolves a script name to its tag in check and refuses an unknown name", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const base = { repoConnectionUuid: s.repo, buildTokenUuid: s.token, kind: "production" };
    const ok = await checked(ctx, { ...base, scriptName: "shop" });
    assert.deepEqual(ok.failures, []);
    assert.equal(ok.inputs!.externalScriptId, s.tag);
    const bad = await checked(ctx, { ...base, scriptName: "nope" });
    assert.deepEqual(
      bad.failures!.map((f) => f.property),
      ["scriptName"],
    );
    assert.match(
      bad.failures![0]!.reason,
      /^scriptName: no script named "nope" in account .*; scripts in the account: shop$/,
    );
    assert.deepEqual((await checked(ctx, { ...base, scriptName: UNKNOWN })).failures, []);
  });

  it("refuses a second trigger of a kind at create (the service's refusal, then the look-up), checking without a request", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const base = { scriptName: "shop", repoConnectionUuid: s.repo, buildTokenUuid: s.token };
    const prod = await bt.handler.create((await checked(ctx, { ...base, kind: "production" })).inputs!, ctx);
    await bt.handler.create((await checked(ctx, { ...base, kind: "preview" })).inputs!, ctx);
    // Each later check is a deployment of its own (a fresh session), as the engine runs them; none
    // lists the script's triggers.
    const listings = fx.em.faults.add({ method: "GET", path: "/triggers$" });
    const third = await checked(providerContext(fx), { ...base, kind: "production", triggerName: "another" });
    assert.deepEqual(third.failures, []);
    assert.deepEqual(
      (await checked(providerContext(fx), { ...base, kind: "production", buildCommand: "make" }, prod.outs))
        .failures,
      [],
    );
    fx.em.faults.remove(listings.id);
    assert.equal(listings.hits, 0);
    await assert.rejects(bt.handler.create(third.inputs!, providerContext(fx)), (e: Error) => {
      assert.match(
        e.message,
        new RegExp(
          `^kind: a trigger for the production slot of script shop already exists \\(${prod.id}\\) ` +
            `with other settings \\(triggerName\\); set importId: "${prod.id}" to adopt it$`,
        ),
      );
      return true;
    });
    assert.equal((await fx.api.builds.triggers.list({ scriptTag: s.tag })).length, 2);
    const adopted = await bt.handler.create({ ...third.inputs!, importId: prod.id }, providerContext(fx));
    assert.equal(adopted.id, prod.id);
  });

  it("refuses at check a second resource of the program taking the same slot, before anything is made", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const base = {
      externalScriptId: s.tag,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
    };
    assert.deepEqual((await checked(ctx, { ...base, triggerName: "one" })).failures, []);
    assert.deepEqual(
      (await checked(ctx, { ...base, triggerName: "one" })).failures,
      [],
      "the same resource again",
    );
    assert.deepEqual((await checked(ctx, { ...base, kind: "preview" })).failures, [], "the other slot");
    const second = await checked(ctx, { ...base, triggerName: "two" });
    assert.deepEqual(
      second.failures!.map((f) => f.property),
      ["kind"],
    );
    assert.match(
      second.failures![0]!.reason,
      /another BuildTrigger of this program also takes the production trigger/,
    );
    assert.deepEqual(await fx.api.builds.triggers.list({ scriptTag: s.tag }), []);
  });

  it("creates, reads without drift, sees out-of-band drift, updates in place and deletes", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const { inputs } = await checked(ctx, {
      scriptName: "shop",
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
      buildCommand: "npm run build",
    });
    const { id, outs } = await bt.handler.create(inputs!, ctx);
    assert.equal(outs.triggerUuid, id);
    assert.equal(outs.externalScriptId, s.tag);
    const read = await bt.handler.read(id, outs, ctx);
    assert.deepEqual(read!.inputs, inputs);
    assert.equal((await bt.handler.diff(id, read!.props, inputs!, ctx)).changes, false);

    await fx.api.builds.triggers.update(
      { triggerUuid: id },
      { build_command: "changed by hand", path_excludes: ["docs/*"] },
    );
    const drift = await bt.handler.read(id, outs, ctx);
    assert.equal(drift!.inputs.buildCommand, "changed by hand");
    assert.deepEqual(await bt.handler.diff(id, drift!.props, inputs!, ctx), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const { outs: updated } = await bt.handler.update(id, drift!.props, inputs!, ctx);
    assert.equal(updated.buildCommand, "npm run build");
    const live = (await fx.api.builds.triggers.list({ scriptTag: s.tag }))[0]!;
    assert.equal(live.build_command, "npm run build");
    assert.deepEqual(live.path_excludes, []);

    await bt.handler.delete(id, updated, ctx);
    assert.deepEqual(await fx.api.builds.triggers.list({ scriptTag: s.tag }), []);
    assert.equal(await bt.handler.read(id, updated, ctx), undefined);
    await bt.handler.delete(id, updated, ctx); // a 404 is success
  });

  it("shows out-of-band drift on every field the service's PATCH sets, under its camelCase name, and puts it back", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const other = await fx.api.builds.tokens.create(
      {},
      {
        build_token_name: "other",
        build_token_secret: "x",
        cloudflare_token_id: "0123456789abcdef0123456789abcdef",
      },
    );
    const { inputs, id, outs } = await createProduction(s, ctx);
    // Each PATCH field of the contract, a value unlike the program's, and the input that shows it.
    const table: [keyof TriggerUpdateBody, unknown, keyof bt.BuildTriggerInputs][] = [
      ["trigger_name", "renamed", "triggerName"],
      ["build_token_uuid", other.build_token_uuid, "buildTokenUuid"],
      ["build_command", "make", "buildCommand"],
      ["deploy_command", "npx wrangler deploy --env x", "deployCommand"],
      ["root_directory", "/app", "rootDirectory"],
      ["branch_includes", ["main", "release"], "branchIncludes"],
      ["branch_excludes", ["wip"], "branchExcludes"],
      ["path_includes", ["src/*"], "pathIncludes"],
      ["path_excludes", ["docs/*"], "pathExcludes"],
      ["build_caching_enabled", false, "buildCachingEnabled"],
    ];
    const patchable = Object.keys(TriggerUpdateBodySchema.shape).sort();
    assert.deepEqual(table.map(([wire]) => wire).sort(), patchable, "the table covers every PATCH field");
    let state = outs;
    for (const [wire, value, input] of table) {
      await fx.api.builds.triggers.update({ triggerUuid: id }, { [wire]: value });
      const drift = await bt.handler.read(id, state, ctx);
      assert.deepEqual(drift!.inputs[input], value, `${input} shows the change`);
      assert.equal((await bt.handler.diff(id, drift!.props, inputs!, ctx)).changes, true, input);
      state = (await bt.handler.update(id, drift!.props, inputs!, ctx)).outs;
      const back = await bt.handler.read(id, state, ctx);
      assert.deepEqual(back!.inputs, inputs, `${input} is put back`);
    }
  });

  it("keeps the resource when read fails with anything but a 404", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const { id, outs } = await createProduction(s, ctx);
    fx.em.faults.add({ method: "GET", path: "/builds/", status: 500 });
    await assert.rejects(
      bt.handler.read(id, outs, ctx),
      (e: Error & { status?: number }) => e.name !== "NotFoundError",
    );
    fx.em.faults.clear();
    assert.equal((await bt.handler.read(id, outs, ctx))!.id, id);
  });

  it("refuses to create over an existing trigger of the kind and adopts one with importId", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const existing = await fx.api.builds.triggers.create(
      {},
      {
        external_script_id: s.tag,
        repo_connection_uuid: s.repo,
        build_token_uuid: s.token,
        trigger_name: "by hand",
        build_command: "",
        deploy_command: "npx wrangler deploy",
        root_directory: "/",
        branch_includes: ["main"],
      },
    );
    const base = {
      externalScriptId: s.tag,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
      triggerName: "managed",
    };
    const normal = (await checked(providerContext(fx), base)).inputs!;
    await assert.rejects(
      bt.handler.create(normal, ctx),
      new RegExp(`set importId: "${existing.trigger_uuid}" to adopt it`),
    );
    const { id, outs } = await bt.handler.create({ ...normal, importId: existing.trigger_uuid }, ctx);
    assert.equal(id, existing.trigger_uuid);
    assert.equal(outs.triggerName, "managed");
    assert.equal((await fx.api.builds.triggers.list({ scriptTag: s.tag }))[0]!.trigger_name, "managed");
  });
});
