/**
 * Wire compatibility: the public TypeScript client `cloudflare` (7.3.0), unchanged, pointed at the
 * emulator's base URL. Every call goes through the public client's own methods (paths, bodies, query
 * encoding, envelope unwrapping, auto-pagination and typed errors are its own); the control API is
 * used only to seed what the public API cannot create (an email sending domain).
 */
import { strict as assert } from "node:assert";
import Cloudflare, { toFile } from "cloudflare";
import { useEmulator } from "../helpers/emulator";

/** Every item of an auto-paginated listing, through the client's own `for await`. */
async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

type ContentConverter = Cloudflare.Zones.SettingGetResponse.ZonesContentConverter;

/** The content_converter member of the client's settings union (its `id` discriminates it). */
function contentConverter(setting: Cloudflare.Zones.SettingGetResponse): ContentConverter {
  assert.ok("id" in setting && setting.id === "content_converter", "expected the content_converter setting");
  return setting as ContentConverter;
}

/** The first error's message (the client types it optional). */
function firstMessage(e: { errors: readonly { message?: string }[] }): string {
  return e.errors[0]?.message ?? "";
}

/** Awaits a rejection of the given typed error class and returns it for further checks. */
async function rejects<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${type.name}, but the call succeeded`);
}

describe("public client cloudflare@7.3.0 against the emulator", () => {
  const fx = useEmulator();
  let cf: Cloudflare;
  let account_id: string;

  beforeEach(() => {
    cf = new Cloudflare({ apiToken: fx.em.token, baseURL: fx.em.url, maxRetries: 0 });
    account_id = fx.em.accountId;
  });

  describe("errors and auth", () => {
    it("turns the error envelope into the client's typed errors with the API's status and codes", async () => {
      const bad = new Cloudflare({ apiToken: "not-a-token", baseURL: fx.em.url, maxRetries: 0 });
      const auth = await rejects(all(bad.zones.list()), Cloudflare.AuthenticationError);
      assert.equal(auth.status, 401);
      assert.ok(auth.errors.length > 0);

      const missing = await rejects(
        cf.zones.get({ zone_id: "0123456789abcdef0123456789abcdef" }),
        Cloudflare.NotFoundError,
      );
      assert.equal(missing.status, 404);
      assert.equal(missing.errors[0]!.code, 1002);
      assert.match(firstMessage(missing), /zone 0123456789abcdef0123456789abcdef not found/);
    });

    it("answers a token without the permission with PermissionDeniedError (403)", async () => {
      const weak = new Cloudflare({
        apiToken: fx.token("user", ["zone:read"]),
        baseURL: fx.em.url,
        maxRetries: 0,
      });
      const err = await rejects(
        weak.zones.create({ account: { id: account_id }, name: "nope.com" }),
        Cloudflare.PermissionDeniedError,
      );
      assert.equal(err.status, 403);
    });
  });

  describe("zones, zone settings, rulesets, custom hostnames", () => {
    it("creates, lists by name, lists every page and gets zones", async () => {
      const names = ["alpha.com", "beta.com", "gamma.com"];
      const created = [];
      for (const name of names) created.push(await cf.zones.create({ account: { id: account_id }, name }));
      assert.deepEqual(
        created.map((z) => z.name),
        names,
      );
      assert.match(created[0]!.id, /^[0-9a-f]{32}$/);
      assert.equal(created[0]!.account.id, account_id);

      const byName = await all(cf.zones.list({ name: "beta.com" }));
      assert.deepEqual(
        byName.map((z) => z.id),
        [created[1]!.id],
      );

      const paged = await all(cf.zones.list({ per_page: 1 }));
      assert.deepEqual(
        paged.map((z) => z.id),
        created.map((z) => z.id),
      );

      const got = await cf.zones.get({ zone_id: created[2]!.id });
      assert.equal(got.name, "gamma.com");
      assert.equal(got.status, "active");

      const dup = await rejects(
        cf.zones.create({ account: { id: account_id }, name: "alpha.com" }),
        Cloudflare.ConflictError,
      );
      assert.equal(dup.status, 409);
      assert.equal(dup.errors[0]!.code, 1061);
    });

    it("reads and edits the content_converter setting through the generic settings methods", async () => {
      const zone = await cf.zones.create({ account: { id: account_id }, name: "settings.com" });
      const before = contentConverter(await cf.zones.settings.get("content_converter", { zone_id: zone.id }));
      assert.equal(before.id, "content_converter");
      assert.equal(before.value, "off");

      const edited = contentConverter(
        await cf.zones.settings.edit("content_converter", { zone_id: zone.id, value: "on" }),
      );
      assert.equal(edited.value, "on");
      assert.equal(edited.editable, true);
      const after = contentConverter(await cf.zones.settings.get("content_converter", { zone_id: zone.id }));
      assert.equal(after.value, "on");

      const bad = await rejects(
        cf.zones.settings.edit("content_converter", { zone_id: zone.id, value: "maybe" }),
        Cloudflare.BadRequestError,
      );
      assert.equal(bad.status, 400);
      assert.match(firstMessage(bad), /^value: must be "on" or "off"/);

      // other settings of the emulator's catalogue, and an id outside it
      await cf.zones.settings.edit("always_online", { zone_id: zone.id, value: "on" });
      const online = await cf.zones.settings.get("always_online", { zone_id: zone.id });
      assert.equal((online as { value?: unknown }).value, "on");
      await rejects(cf.zones.settings.get("no_such_setting", { zone_id: zone.id }), Cloudflare.NotFoundError);
    });

    it("gets and updates the http_config_settings entrypoint; a rule keeps its id by ref", async () => {
      const zone = await cf.zones.create({ account: { id: account_id }, name: "rules.com" });
      const none = await rejects(
        cf.rulesets.phases.get("http_config_settings", { zone_id: zone.id }),
        Cloudflare.NotFoundError,
      );
      assert.equal(none.status, 404);

      const rule = {
        ref: "docs",
        expression: 'starts_with(http.request.uri.path, "/docs")',
        action: "set_config" as const,
        action_parameters: { content_converter: true },
        description: "docs as markdown",
      };
      const first = (await cf.rulesets.phases.update("http_config_settings", {
        zone_id: zone.id,
        rules: [rule],
      })) as Cloudflare.Rulesets.PhaseUpdateResponse.Ruleset;
      assert.equal(first.phase, "http_config_settings");
      assert.equal(first.kind, "zone");
      assert.equal(first.version, "1");
      const ruleId = first.rules[0]!.id;
      assert.ok(ruleId);

      const read = await cf.rulesets.phases.get("http_config_settings", { zone_id: zone.id });
      assert.equal(read.id, first.id);
      assert.equal(read.rules[0]!.expression, rule.expression);

      const second = (await cf.rulesets.phases.update("http_config_settings", {
        zone_id: zone.id,
        rules: [{ ...rule, action_parameters: { content_converter: false } }],
      })) as Cloudflare.Rulesets.PhaseUpdateResponse.Ruleset;
      assert.equal(second.version, "2");
      assert.equal(second.rules[0]!.id, ruleId);
      assert.equal(second.rules[0]!.version, "2");

      const dry = await cf.rulesets.phases.update("http_config_settings", {
        zone_id: zone.id,
        dry_run: true,
        rules: [],
      });
      assert.equal(dry, null);
      const unchanged = await cf.rulesets.phases.get("http_config_settings", { zone_id: zone.id });
      assert.equal(unchanged.version, "2");
      assert.equal(unchanged.rules.length, 1);

      const bad = await rejects(
        cf.rulesets.phases.update("http_config_settings", {
          zone_id: zone.id,
          rules: [{ ...rule, expression: "http.host eq" }],
        }),
        Cloudflare.BadRequestError,
      );
      assert.match(firstMessage(bad), /^rules\.0\.expression: /);
    });

    it("creates, lists, gets, updates and deletes the zone's ruleset through the collection", async () => {
      const zone = await cf.zones.create({ account: { id: account_id }, name: "collection.com" });
      const rule = {
        ref: "docs",
        expression: 'starts_with(http.request.uri.path, "/docs")',
        action: "set_config" as const,
        action_parameters: { content_converter: true },
      };
      // The client types create and update as `… | unknown` (a dry run answers null).
      const made = (await cf.rulesets.create({
        zone_id: zone.id,
        kind: "zone",
        name: "zone config",
        phase: "http_config_settings",
        rules: [rule],
      })) as Cloudflare.Rulesets.RulesetCreateResponse.Ruleset;
      assert.equal(made.phase, "http_config_settings");
      const listed = [];
      for await (const r of cf.rulesets.list({ zone_id: zone.id })) listed.push(r.id);
      assert.deepEqual(listed, [made.id]);
      const entrypoint = await cf.rulesets.phases.get("http_config_settings", { zone_id: zone.id });
      assert.equal(entrypoint.id, made.id);
      const updated = (await cf.rulesets.update(made.id, {
        zone_id: zone.id,
        kind: "zone",
        name: "zone config",
        phase: "http_config_settings",
        rules: [{ ...rule, action_parameters: { content_converter: false } }],
      })) as Cloudflare.Rulesets.RulesetUpdateResponse.Ruleset;
      assert.equal(updated.version, "2");
      assert.equal((await cf.rulesets.get(made.id, { zone_id: zone.id })).rules[0]!.id, made.rules[0]!.id);
      await cf.rulesets.delete(made.id, { zone_id: zone.id });
      await rejects(cf.rulesets.get(made.id, { zone_id: zone.id }), Cloudflare.NotFoundError);
    });

    it("creates, lists (all pages, by hostname), gets, edits and deletes custom hostnames", async () => {
      const zone = await cf.zones.create({ account: { id: account_id }, name: "saas.com" });
      const hosts = ["a.customer.com", "b.customer.com", "c.other.com"];
      const created = [];
      for (const hostname of hosts) {
        created.push(
          await cf.customHostnames.create({
            zone_id: zone.id,
            hostname,
            ssl: { method: "http", type: "dv" },
          }),
        );
      }
      assert.equal(created[0]!.hostname, "a.customer.com");
      assert.equal(created[0]!.ssl?.method, "http");

      const paged = await all(cf.customHostnames.list({ zone_id: zone.id, per_page: 2 }));
      assert.deepEqual(
        paged.map((h) => h.id),
        created.map((h) => h.id),
      );

      const exact = await all(
        cf.customHostnames.list({ zone_id: zone.id, hostname: { exact: "b.customer.com" } }),
      );
      assert.deepEqual(
        exact.map((h) => h.id),
        [created[1]!.id],
      );
      const contains = await all(
        cf.customHostnames.list({ zone_id: zone.id, hostname: { contain: "customer" } }),
      );
      assert.deepEqual(
        contains.map((h) => h.hostname),
        ["a.customer.com", "b.customer.com"],
      );

      const edited = await cf.customHostnames.edit(created[0]!.id, {
        zone_id: zone.id,
        custom_metadata: { content_converter: "enabled" },
      });
      assert.deepEqual(edited.custom_metadata, { content_converter: "enabled" });
      const got = await cf.customHostnames.get(created[0]!.id, { zone_id: zone.id });
      assert.deepEqual(got.custom_metadata, { content_converter: "enabled" });

      const deleted = await cf.customHostnames.delete(created[2]!.id, { zone_id: zone.id });
      assert.equal(deleted.id, created[2]!.id);
      const gone = await rejects(
        cf.customHostnames.get(created[2]!.id, { zone_id: zone.id }),
        Cloudflare.NotFoundError,
      );
      assert.equal(gone.status, 404);
    });
  });

  describe("email sending", () => {
    it("sends and returns the per-recipient result; errors carry the email table's codes", async () => {
      const seed = await fx.http("PUT", `/__emulator/email/accounts/${account_id}/domains/example.net`, {
        body: {},
      });
      assert.equal(seed.status, 200);
      const sent = await cf.emailSending.send({
        account_id,
        from: { address: "news@example.net", name: "News" },
        // The public contract takes bare addresses in `to` (named forms are for from and reply_to).
        to: ["one@example.org", "two@example.org"],
        subject: "Hello",
        text: "Hi there",
      });
      assert.deepEqual(sent.delivered, ["one@example.org", "two@example.org"]);
      assert.deepEqual(sent.permanent_bounces, []);
      assert.deepEqual(sent.queued, []);
      assert.deepEqual(sent.suppressed_recipients, []);
      assert.match(sent.message_id, /@example\.net>$/);

      const unknown = await rejects(
        cf.emailSending.send({
          account_id,
          from: "a@unknown-domain.net",
          to: "x@example.org",
          subject: "s",
          text: "t",
        }),
        Cloudflare.NotFoundError,
      );
      assert.equal(unknown.errors[0]!.code, 10000);
      assert.equal(firstMessage(unknown), "email.sending.error.not_found");

      const invalid = await rejects(
        cf.emailSending.send({ account_id, from: "news@example.net", subject: "s" }),
        Cloudflare.BadRequestError,
      );
      assert.equal(invalid.status, 400);

      const raw = await cf.emailSending.sendRaw({
        account_id,
        from: "news@example.net",
        recipients: ["one@example.org", "bounce@example.org"],
        mime_message: "From: news@example.net\r\nSubject: raw\r\n\r\nHi",
      });
      assert.deepEqual(raw.delivered, ["one@example.org"]);
      assert.deepEqual(raw.permanent_bounces, ["bounce@example.org"]);
      assert.match(raw.message_id, /@example\.net>$/);
    });
  });

  describe("realtime kit meetings", () => {
    const app = "app1";

    it("creates, gets, lists page by page and updates meetings", async () => {
      const ids: string[] = [];
      for (const title of ["m1", "m2", "m3"]) {
        const res = await cf.realtimeKit.meetings.create(app, {
          account_id,
          title,
          session_keep_alive_time_in_secs: 120,
        });
        assert.equal(res.success, true);
        assert.equal(res.data!.title, title);
        ids.push(res.data!.id);
      }

      const one = await cf.realtimeKit.meetings.getMeetingByID(ids[1]!, { account_id, app_id: app });
      assert.equal(one.data!.title, "m2");
      assert.equal(one.data!.status, "ACTIVE");
      assert.equal(one.data!.session_keep_alive_time_in_secs, 120);

      // This listing has no auto-pagination in the client: page_no / per_page and `paging`.
      const seen: string[] = [];
      for (let page_no = 1; ; page_no++) {
        const page = await cf.realtimeKit.meetings.get(app, { account_id, page_no, per_page: 2 });
        assert.equal(page.paging.total_count, 3);
        if (page.data.length === 0) break;
        seen.push(...page.data.map((m) => m.id));
        assert.ok(page_no <= 3, "paging must end");
      }
      assert.deepEqual(seen.sort(), [...ids].sort());

      const updated = await cf.realtimeKit.meetings.updateMeetingByID(ids[0]!, {
        account_id,
        app_id: app,
        status: "INACTIVE",
      });
      assert.equal(updated.data!.status, "INACTIVE");
      const inactive = await cf.realtimeKit.meetings.get(app, { account_id, status: "INACTIVE" });
      assert.deepEqual(
        inactive.data.map((m) => m.id),
        [ids[0]],
      );

      const missing = await rejects(
        cf.realtimeKit.meetings.getMeetingByID("00000000-0000-4000-8000-000000000000", {
          account_id,
          app_id: app,
        }),
        Cloudflare.NotFoundError,
      );
      assert.equal(missing.status, 404);

      const bad = await rejects(
        cf.realtimeKit.meetings.create(app, { account_id, session_keep_alive_time_in_secs: 5 }),
        Cloudflare.BadRequestError,
      );
      // This area answers the contract's one `error` object, not `errors[]`.
      assert.match(JSON.stringify(bad.error), /"message":"session_keep_alive_time_in_secs: /);
    });
  });

  describe("registrar", () => {
    it("searches and checks domains with pricing", async () => {
      const search = await cf.registrar.search({ account_id, q: "acme", extensions: ["com", "dev"] });
      assert.deepEqual(
        search.domains.map((d) => d.name),
        ["acme.com", "acme.dev"],
      );
      assert.equal(search.domains[0]!.pricing!.registration_cost, "10.44");

      const check = await cf.registrar.check({ account_id, domains: ["acme.com", "example.com", "x.uk"] });
      const byName = Object.fromEntries(check.domains.map((d) => [d.name, d]));
      assert.equal(byName["acme.com"]!.registrable, true);
      assert.equal(byName["example.com"]!.reason, "domain_unavailable");
      assert.equal(byName["x.uk"]!.reason, "extension_not_supported_via_api");
    });

    it("creates, lists every page, gets and edits registrations and reads both workflow statuses", async () => {
      const fast = await cf.registrar.registrations.create({ account_id, domain_name: "acme.com" });
      assert.equal(fast.state, "succeeded");
      assert.equal(fast.completed, true);
      assert.equal(fast.context!["domain_name"], "acme.com");
      assert.match(fast.links.self, /\/registrations\/acme\.com\/registration-status$/);

      const slow = await cf.registrar.registrations.create({
        account_id,
        domain_name: "acme.dev",
        years: 2,
        auto_renew: true,
      });
      assert.equal(slow.state, "pending");
      assert.equal(slow.completed, false);
      await cf.registrar.registrations.create({ account_id, domain_name: "acme.org" });

      const pending = await cf.registrar.registrationStatus.get("acme.dev", { account_id });
      assert.equal(pending.completed, false);
      fx.clock.advance(60_000);
      const done = await cf.registrar.registrationStatus.get("acme.dev", { account_id });
      assert.equal(done.state, "succeeded");

      const listed = await all(cf.registrar.registrations.list({ account_id, per_page: 1 }));
      assert.deepEqual(
        listed.map((r) => r.domain_name),
        ["acme.com", "acme.dev", "acme.org"],
      );
      const byName = await all(
        cf.registrar.registrations.list({ account_id, per_page: 2, sort_by: "name", direction: "desc" }),
      );
      assert.deepEqual(
        byName.map((r) => r.domain_name),
        ["acme.org", "acme.dev", "acme.com"],
      );

      const reg = await cf.registrar.registrations.get("acme.dev", { account_id });
      assert.equal(reg.status, "active");
      assert.equal(reg.auto_renew, true);
      assert.equal(reg.privacy_mode, "redaction");

      const edit = await cf.registrar.registrations.edit("acme.com", { account_id, auto_renew: true });
      assert.equal(edit.state, "succeeded");
      const update = await cf.registrar.updateStatus.get("acme.com", { account_id });
      assert.equal(update.state, "succeeded");
      assert.equal((await cf.registrar.registrations.get("acme.com", { account_id })).auto_renew, true);

      const dup = await rejects(
        cf.registrar.registrations.create({ account_id, domain_name: "acme.com" }),
        Cloudflare.ConflictError,
      );
      assert.equal(dup.errors[0]!.code, 13003);
      await rejects(
        cf.registrar.registrations.get("nothing-here.com", { account_id }),
        Cloudflare.NotFoundError,
      );
      const premium = await rejects(
        cf.registrar.registrations.create({ account_id, domain_name: "premium.com" }),
        Cloudflare.UnprocessableEntityError,
      );
      assert.equal(premium.errors[0]!.code, 13005);
    });

    it("serves the deprecated domains endpoints", async () => {
      await cf.registrar.registrations.create({ account_id, domain_name: "legacy.com" });
      const domains = await all(cf.registrar.domains.list({ account_id }));
      assert.equal(domains.length, 1);
      const got = (await cf.registrar.domains.get("legacy.com", { account_id })) as { locked?: boolean };
      assert.equal(got.locked, true);
      const updated = (await cf.registrar.domains.update("legacy.com", { account_id, locked: false })) as {
        locked?: boolean;
      };
      assert.equal(updated.locked, false);
      const missing = await rejects(
        cf.registrar.domains.get("not-mine.com", { account_id }),
        Cloudflare.NotFoundError,
      );
      assert.equal(missing.status, 404);
    });
  });

  describe("AI search", () => {
    it("takes the public client's instance create and update with every parameter it declares", async () => {
      /** Every setting both bodies take, typed by the client's own declaration (a field it lacks fails tsc). */
      const everySetting = {
        ai_gateway_id: "gw-1",
        ai_search_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        cache: false,
        cache_threshold: "flexible_friend",
        cache_ttl: 7200,
        chunk: true,
        chunk_overlap: 20,
        chunk_size: 512,
        custom_metadata: [{ data_type: "text", field_name: "team" }],
        embedding_model: "@cf/baai/bge-m3",
        fusion_method: "max",
        index_method: { keyword: true, vector: true },
        indexing_options: { keyword_tokenizer: "trigram", use_ocr: true },
        max_num_results: 20,
        metadata: { created_from_aisearch_wizard: false, worker_domain: "docs.example.com" },
        public_endpoint_params: {
          authorized_hosts: ["docs.example.com"],
          chat_completions_endpoint: { disabled: true },
          custom_domains: ["search.example.com"],
          default_domain_enabled: false,
          enabled: true,
          mcp: { description: "docs", disabled: false },
          rate_limit: { period_ms: 60_000, requests: 100, technique: "sliding" },
          search_endpoint: { disabled: false },
        },
        reranking: true,
        reranking_model: "@cf/baai/bge-reranker-base",
        retrieval_options: { boost_by: [{ field: "team", direction: "desc" }], keyword_match_mode: "or" },
        rewrite_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        rewrite_query: true,
        score_threshold: 0.5,
        source: "docs.example.com",
        source_params: {
          exclude_items: ["/private/*"],
          include_items: ["/docs/*"],
          prefix: "docs/",
          r2_jurisdiction: "eu",
          web_crawler: {
            discover_options: {
              depth: 3,
              include_external_links: false,
              include_subdomains: true,
              limit: 500,
              max_age: 3600,
              source: "all",
            },
            parse_options: {
              content_selector: [{ path: "/docs/**", selector: "main" }],
              include_headers: { "X-Api-Key": "k" },
              include_images: true,
              specific_sitemaps: ["https://docs.example.com/sitemap.xml"],
              use_browser_rendering: true,
            },
            parse_type: "discover",
          },
        },
        sync_interval: 3600,
        token_id: "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
      } satisfies Omit<Cloudflare.AISearch.InstanceCreateParams, "account_id" | "id"> &
        Omit<Cloudflare.AISearch.InstanceUpdateParams, "account_id">;
      const created = await cf.aiSearch.instances.create({
        account_id,
        id: "every",
        type: "web-crawler",
        hybrid_search_enabled: true,
        ...everySetting,
      });
      assert.equal(created.id, "every");
      const read = await cf.aiSearch.instances.read("every", { account_id });
      for (const [key, value] of Object.entries(everySetting))
        assert.deepEqual(Reflect.get(read, key), value, `create kept ${key}`);
      assert.equal(read.hybrid_search_enabled, true);
      const updated = await cf.aiSearch.instances.update("every", {
        account_id,
        ...everySetting,
        chunk_size: 1024,
        paused: true,
        summarization: true,
        summarization_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        system_prompt_ai_search: "answer briefly",
        system_prompt_index_summarization: "summarize",
        system_prompt_rewrite_query: "rewrite",
      });
      assert.equal(updated.chunk_size, 1024);
      const after = await cf.aiSearch.instances.read("every", { account_id });
      assert.deepEqual(
        Reflect.get(after, "source_params"),
        everySetting.source_params,
        "update kept source_params",
      );
      assert.equal(after.paused, true);
      assert.equal(Reflect.get(after, "system_prompt_rewrite_query"), "rewrite");
    });

    it("drives instances and jobs in the default namespace, listing every page", async () => {
      const ids = ["kb-1", "kb-2", "kb-3"];
      for (const id of ids) {
        const created = await cf.aiSearch.instances.create({
          account_id,
          id,
          type: "web-crawler",
          source: "example.com",
        });
        assert.equal(created.id, id);
      }
      const listed = await all(cf.aiSearch.instances.list({ account_id, per_page: 2 }));
      assert.deepEqual(listed.map((i) => i.id).sort(), ids);

      const read = await cf.aiSearch.instances.read("kb-1", { account_id });
      assert.equal(read.id, "kb-1");
      assert.equal(read.source, "example.com");

      const updated = await cf.aiSearch.instances.update("kb-1", { account_id, paused: true });
      assert.equal(updated.paused, true);

      const stats = await cf.aiSearch.instances.stats("kb-2", { account_id });
      assert.equal(typeof stats.completed, "number");

      const job = await cf.aiSearch.instances.jobs.create("kb-2", { account_id });
      assert.equal(job.source, "user");
      fx.clock.advance(60_000);
      const jobs = await all(cf.aiSearch.instances.jobs.list("kb-2", { account_id, per_page: 1 }));
      assert.deepEqual(
        jobs.map((j) => j.id),
        [job.id],
      );
      const got = await cf.aiSearch.instances.jobs.get(job.id, { account_id, id: "kb-2" });
      assert.ok(got.ended_at);
      const logs = await cf.aiSearch.instances.jobs.logs(job.id, { account_id, id: "kb-2", per_page: 100 });
      assert.ok(logs.length > 0);
      assert.ok(logs.every((l) => typeof l.message === "string"));

      const deleted = await cf.aiSearch.instances.delete("kb-3", { account_id });
      assert.equal(deleted.id, "kb-3");
      const gone = await rejects(
        cf.aiSearch.instances.read("kb-3", { account_id }),
        Cloudflare.NotFoundError,
      );
      assert.equal(gone.status, 404);
      // The contract's create documents 201, 400 and 403: an id in use is a 400 (code 1003).
      const dup = await rejects(
        cf.aiSearch.instances.create({ account_id, id: "kb-1" }),
        Cloudflare.BadRequestError,
      );
      assert.equal(dup.status, 400);
    });

    it("drives namespaces and the same operations inside a named namespace", async () => {
      const ns = await cf.aiSearch.namespaces.create({ account_id, name: "team", description: "team docs" });
      assert.equal(ns.name, "team");
      const namespaces = await all(cf.aiSearch.namespaces.list({ account_id, per_page: 1 }));
      assert.deepEqual(namespaces.map((n) => n.name).sort(), ["default", "team"]);
      const readNs = await cf.aiSearch.namespaces.read("team", { account_id });
      assert.equal(readNs.description, "team docs");
      const updatedNs = await cf.aiSearch.namespaces.update("team", { account_id, description: "docs" });
      assert.equal(updatedNs.description, "docs");

      const inst = await cf.aiSearch.namespaces.instances.create("team", { account_id, id: "kb" });
      assert.equal(inst.id, "kb");
      const inNs = await all(cf.aiSearch.namespaces.instances.list("team", { account_id }));
      assert.deepEqual(
        inNs.map((i) => i.id),
        ["kb"],
      );
      assert.deepEqual(await all(cf.aiSearch.instances.list({ account_id })), []);
      const read = await cf.aiSearch.namespaces.instances.read("kb", { account_id, name: "team" });
      assert.equal(read.id, "kb");
      const upd = await cf.aiSearch.namespaces.instances.update("kb", {
        account_id,
        name: "team",
        sync_interval: 3600,
      });
      assert.equal(upd.sync_interval, 3600);
      await cf.aiSearch.namespaces.instances.stats("kb", { account_id, name: "team" });

      const job = await cf.aiSearch.namespaces.instances.jobs.create("kb", {
        account_id,
        name: "team",
        description: "first sync",
      });
      assert.equal(job.description, "first sync");
      const cancelled = await cf.aiSearch.namespaces.instances.jobs.update(job.id, {
        account_id,
        name: "team",
        id: "kb",
        action: "cancel",
      });
      assert.ok(cancelled.ended_at);
      const jobs = await all(cf.aiSearch.namespaces.instances.jobs.list("kb", { account_id, name: "team" }));
      assert.deepEqual(
        jobs.map((j) => j.id),
        [job.id],
      );
      const got = await cf.aiSearch.namespaces.instances.jobs.get(job.id, {
        account_id,
        name: "team",
        id: "kb",
      });
      assert.equal(got.id, job.id);
      await cf.aiSearch.namespaces.instances.jobs.logs(job.id, { account_id, name: "team", id: "kb" });

      // Across the namespace's instances: the chunks name their instance, an unknown one is in errors.
      const across = { instance_ids: ["kb", "gone"] };
      const found = await cf.aiSearch.namespaces.search("team", {
        account_id,
        query: "anything",
        ai_search_options: across,
      });
      assert.equal(found.search_query, "anything");
      assert.deepEqual(
        found.errors?.map((e) => e.instance_id),
        ["gone"],
      );
      const answer = await cf.aiSearch.namespaces.chatCompletions("team", {
        account_id,
        messages: [{ role: "user", content: "anything" }],
        ai_search_options: across,
      });
      assert.equal(answer.object, "chat.completion");

      await cf.aiSearch.namespaces.instances.delete("kb", { account_id, name: "team" });
      await rejects(
        cf.aiSearch.namespaces.instances.read("kb", { account_id, name: "team" }),
        Cloudflare.NotFoundError,
      );
      await cf.aiSearch.namespaces.delete("team", { account_id });
      await rejects(cf.aiSearch.namespaces.read("team", { account_id }), Cloudflare.NotFoundError);
    });
  });

  describe("workers scripts, versions and deployments (the builds area's way in)", () => {
    it("refuses the client's upload as sent: a multipart body labelled application/javascript", async () => {
      const err = await rejects(
        cf.workers.scripts.update("my-worker", {
          account_id,
          metadata: { main_module: "index.js" },
          files: [await toFile(Buffer.from("export default {}"), "index.js")],
        }),
        Cloudflare.APIError,
      );
      assert.equal(err.status, 415);
    });

    it("uploads a module script, lists scripts, versions and deployments and deploys a version", async () => {
      // The client labels its multipart body `application/javascript` (see docs/emulator.md); clearing that
      // header through its own request options lets fetch send the form's multipart type and boundary.
      const uploaded = await cf.workers.scripts.update(
        "my-worker",
        {
          account_id,
          metadata: { main_module: "index.js", compatibility_date: "2026-01-01" },
          files: [
            await toFile(
              Buffer.from("export default { fetch() { return new Response('hi') } }"),
              "index.js",
              { type: "application/javascript+module" },
            ),
          ],
        },
        { headers: { "Content-Type": null } },
      );
      assert.equal(uploaded.id, "my-worker");
      assert.ok(uploaded.tag);

      const scripts = await all(cf.workers.scripts.list({ account_id }));
      assert.deepEqual(
        scripts.map((s) => [s.id, s.tag]),
        [["my-worker", uploaded.tag]],
      );

      const versions = await all(cf.workers.scripts.versions.list("my-worker", { account_id }));
      assert.equal(versions.length, 1);
      const versionId = versions[0]!.id!;

      const deployment = await cf.workers.scripts.deployments.create("my-worker", {
        account_id,
        strategy: "percentage",
        versions: [{ version_id: versionId, percentage: 100 }],
      });
      assert.equal(deployment.versions[0]!.version_id, versionId);
      // The client iterates `result.items` but types each item as `{ deployments }`; the emulator's items
      // are deployments (see docs/emulator.md), and the spec's `result.deployments` is on the page too.
      // The upload deployed its version too: two deployments, newest first, one per page.
      const deployments = (await all(
        cf.workers.scripts.deployments.list("my-worker", { account_id, per_page: 1 }),
      )) as unknown as Cloudflare.Workers.Scripts.Deployment[];
      assert.equal(deployments.length, 2);
      assert.equal(deployments[0]!.id, deployment.id);
      assert.notEqual(deployments[1]!.id, deployment.id);
      assert.equal(deployments[0]!.versions[0]!.version_id, versionId);
      const page = await cf.workers.scripts.deployments.list("my-worker", { account_id });
      const spec = (page.result as unknown as { deployments: Cloudflare.Workers.Scripts.Deployment[] })
        .deployments;
      assert.equal(spec[0]!.id, deployment.id);
    });
  });
});
