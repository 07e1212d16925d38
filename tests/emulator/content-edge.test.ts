import { strict as assert } from "node:assert";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { countTokens } from "../../emulator/markdown/tokens";
import { ValidationError, type TransportEvent } from "../../sdk";
import type { ConfigRuleRequest, Zone } from "../../sdk/content";
import { useEmulator } from "../helpers/emulator";

interface OriginPage {
  status?: number;
  type?: string;
  body: string | Buffer;
}

/** A tiny origin on 127.0.0.1 port 0 whose pages each test scripts, and which records what it was asked. */
class Origin {
  readonly pages = new Map<string, OriginPage>();
  readonly seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  #server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      this.seen.push({ url: req.url ?? "", headers: req.headers });
      const page = this.pages.get((req.url ?? "/").split("?")[0]!);
      if (!page) {
        res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not here</h1>");
        return;
      }
      res.writeHead(page.status ?? 200, {
        "content-type": page.type ?? "text/html; charset=utf-8",
        "x-origin": "yes",
      });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }
}

const ARTICLE = `<!doctype html><html><head>
<meta property="og:title" content="OG Title">
<meta name="title" content="Guide">
<meta name="description" content="How to convert">
<meta property="og:image" content="https://example.com/cover.png">
<style>body { font-family: serif }</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Guide"}</script>
</head><body>
<header>Brand</header><nav><a href="/">Home</a></nav>
<main><h1>Guide</h1><p>Read <em>this</em> first.</p></main>
<script>track()</script>
<script type="application/ld+json">{"@type":"BreadcrumbList"}</script>
<footer>Copyright</footer>
</body></html>`;

const EXPECTED_MARKDOWN =
  "---\ntitle: Guide\ndescription: How to convert\nimage: https://example.com/cover.png\n---\n\n" +
  "# Guide\n\nRead _this_ first.\n\n" +
  '```json\n{"@context":"https://schema.org","@type":"Article","headline":"Guide"}\n{"@type":"BreadcrumbList"}\n```\n';

const rule = (expression: string, on = true, extra: Partial<ConfigRuleRequest> = {}): ConfigRuleRequest => ({
  expression,
  action: "set_config",
  action_parameters: { content_converter: on },
  description: "",
  ...extra,
});

describe("content area: the markdown edge", () => {
  const fx = useEmulator();
  const origin = new Origin();
  let zone: Zone;

  beforeEach(async () => {
    await origin.start();
    origin.pages.set("/docs/guide", { body: ARTICLE });
    origin.pages.set("/blog/post", { body: ARTICLE });
    zone = await fx.api.content.zones.create({}, { name: "example.com" });
    const res = await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, {
      body: { url: origin.url },
    });
    assert.equal(res.status, 200);
  });
  afterEach(async () => {
    origin.pages.clear();
    origin.seen.length = 0;
    await origin.stop();
  });

  const edge = (host: string, path: string): string => `${fx.em.origin}/__edge/${host}${path}`;
  const get = (host: string, path: string, accept = "text/markdown") =>
    fx.http("GET", edge(host, path), { headers: { accept }, token: null });
  const isOriginal = (
    res: { status: number; headers: Record<string, string>; text: string },
    body = ARTICLE,
  ): void => {
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(res.headers["x-origin"], "yes");
    assert.equal(res.headers["x-markdown-tokens"], undefined);
    assert.equal(res.text, body);
  };
  const enableZone = () => fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });

  describe("conversion", () => {
    it("serves the converted page with the spec's headers and real token counts", async () => {
      await enableZone();
      const res = await get("example.com", "/docs/guide");
      assert.equal(res.status, 200);
      assert.equal(res.text, EXPECTED_MARKDOWN);
      assert.equal(res.headers["content-type"], "text/markdown; charset=utf-8");
      assert.equal(res.headers["content-length"], String(Buffer.byteLength(EXPECTED_MARKDOWN)));
      assert.equal(res.headers["vary"], "accept");
      assert.equal(res.headers["x-markdown-tokens"], String(countTokens(EXPECTED_MARKDOWN)));
      assert.equal(res.headers["x-original-tokens"], String(countTokens(ARTICLE)));
      assert.ok(Number(res.headers["x-original-tokens"]) > Number(res.headers["x-markdown-tokens"]));
      assert.equal(res.headers["content-signal"], "ai-train=yes, search=yes, ai-input=yes");
    });

    it("fetchMarkdown splits the document and reads the headers, without credentials", async () => {
      await enableZone();
      const events: TransportEvent[] = [];
      const client = fx.client({ onEvent: (e) => events.push(e) });
      const page = await client.content.markdown.fetch({}, { url: edge("example.com", "/docs/guide") });
      assert.equal(page.converted, true);
      if (!page.converted) return;
      assert.deepEqual(page.frontmatter, {
        title: "Guide",
        description: "How to convert",
        image: "https://example.com/cover.png",
      });
      assert.equal(page.body, "# Guide\n\nRead _this_ first.");
      assert.deepEqual(page.jsonLd, [
        { "@context": "https://schema.org", "@type": "Article", headline: "Guide" },
        { "@type": "BreadcrumbList" },
      ]);
      assert.equal(page.markdown, EXPECTED_MARKDOWN);
      assert.equal(page.markdownTokens, countTokens(EXPECTED_MARKDOWN));
      assert.equal(page.originalTokens, countTokens(ARTICLE));
      assert.deepEqual(page.contentSignal, { "ai-train": "yes", search: "yes", "ai-input": "yes" });
      const sent = events.find((e) => e.type === "request");
      assert.ok(sent && sent.type === "request");
      assert.equal(sent.headers.accept, "text/markdown");
      assert.equal(sent.headers.authorization, undefined);
    });

    it("fetches the origin with the request's path, query and Accept", async () => {
      await enableZone();
      await get("example.com", "/docs/guide?lang=en&x=%20");
      assert.equal(origin.seen[0]!.url, "/docs/guide?lang=en&x=%20");
      assert.equal(origin.seen[0]!.headers.accept, "text/markdown");
      assert.equal(origin.seen[0]!.headers["x-forwarded-host"], "example.com");
    });

    it("serves the original when the request does not list text/markdown", async () => {
      await enableZone();
      isOriginal(await get("example.com", "/docs/guide", "text/html,application/xhtml+xml"));
      isOriginal(await get("example.com", "/docs/guide", "text/markdown;q=0, text/html"));
      const page = await fx.api.content.markdown.fetch(
        {},
        { url: edge("example.com", "/docs/guide") },
        {
          accept: "text/html",
        },
      );
      assert.equal(page.converted, false);
      if (page.converted) return;
      assert.equal(page.response.status, 200);
      assert.equal(page.response.body, ARTICLE);
    });

    it("converts when text/markdown is one of several media ranges", async () => {
      await enableZone();
      const res = await get("example.com", "/docs/guide", "text/html;q=0.9, text/markdown");
      assert.equal(res.headers["content-type"], "text/markdown; charset=utf-8");
    });
  });

  describe("what enables it", () => {
    it("is off for a fresh zone", async () => {
      isOriginal(await get("example.com", "/docs/guide"));
      const page = await fx.api.content.markdown.fetch({}, { url: edge("example.com", "/docs/guide") });
      assert.equal(page.converted, false);
    });

    it("the zone setting covers the zone and its subdomains, and turning it off stops it", async () => {
      await enableZone();
      assert.equal(
        (await get("example.com", "/blog/post")).headers["content-type"],
        "text/markdown; charset=utf-8",
      );
      assert.equal(
        (await get("www.example.com", "/blog/post")).headers["content-type"],
        "text/markdown; charset=utf-8",
      );
      await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "off" });
      isOriginal(await get("example.com", "/blog/post"));
    });

    it("a rule matching a host enables only that host", async () => {
      await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        { rules: [rule('http.host eq "docs.example.com"')] },
      );
      assert.equal(
        (await get("docs.example.com", "/blog/post")).headers["x-markdown-tokens"] !== undefined,
        true,
      );
      isOriginal(await get("www.example.com", "/blog/post"));
      isOriginal(await get("example.com", "/blog/post"));
    });

    it("a rule matching a path prefix enables only that path", async () => {
      await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        { rules: [rule('starts_with(http.request.uri.path, "/docs/")')] },
      );
      assert.equal((await get("example.com", "/docs/guide")).text, EXPECTED_MARKDOWN);
      isOriginal(await get("example.com", "/blog/post"));
    });

    it("a rule's content_converter overrides the zone setting, later matching rules winning", async () => {
      await enableZone();
      await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [
            rule('starts_with(http.request.uri.path, "/blog/")', false),
            rule('http.host eq "news.example.com" and starts_with(http.request.uri.path, "/blog/")', true),
          ],
        },
      );
      isOriginal(await get("example.com", "/blog/post"));
      assert.equal((await get("example.com", "/docs/guide")).text, EXPECTED_MARKDOWN);
      assert.equal((await get("news.example.com", "/blog/post")).text, EXPECTED_MARKDOWN);
    });

    it("a disabled rule is ignored", async () => {
      await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [rule('starts_with(http.request.uri.path, "/docs/")', true, { enabled: false })],
        },
      );
      isOriginal(await get("example.com", "/docs/guide"));
    });

    it("custom-hostname metadata opts a hostname in through a metadata rule", async () => {
      await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [rule('lookup_json_string(cf.hostname.metadata, "content_converter") eq "enabled"')],
        },
      );
      const shop = await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        {
          hostname: "shop.customer.net",
          custom_metadata: { content_converter: "enabled" },
        },
      );
      await fx.api.content.customHostnames.create({ zoneId: zone.id }, { hostname: "blog.customer.net" });
      assert.equal((await get("shop.customer.net", "/docs/guide")).text, EXPECTED_MARKDOWN);
      assert.equal(origin.seen.at(-1)!.headers["x-forwarded-host"], "shop.customer.net");
      isOriginal(await get("blog.customer.net", "/docs/guide"));
      isOriginal(await get("example.com", "/docs/guide"));

      await fx.api.content.customHostnames.update(
        { zoneId: zone.id, customHostnameId: shop.id },
        { custom_metadata: { content_converter: "disabled" } },
      );
      isOriginal(await get("shop.customer.net", "/docs/guide"));
    });

    it("metadata alone does nothing without a rule that reads it", async () => {
      await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        {
          hostname: "shop.customer.net",
          custom_metadata: { content_converter: "enabled" },
        },
      );
      isOriginal(await get("shop.customer.net", "/docs/guide"));
    });
  });

  describe("limits: only HTML up to 2,097,152 bytes is converted", () => {
    /** An HTML page of exactly `size` bytes. */
    const pageOf = (size: number): string => {
      const head = "<html><body><p>big</p><!--";
      const tail = "--></body></html>";
      return head + "x".repeat(size - head.length - tail.length) + tail;
    };

    it("converts a page of exactly 2,097,152 bytes", async () => {
      await enableZone();
      origin.pages.set("/at-limit", { body: pageOf(2_097_152) });
      const res = await get("example.com", "/at-limit");
      assert.equal(res.headers["content-type"], "text/markdown; charset=utf-8");
      assert.equal(res.text, "big\n");
    });

    it("serves a page of 2,097,153 bytes as the original", async () => {
      await enableZone();
      const big = pageOf(2_097_153);
      origin.pages.set("/over-limit", { body: big });
      const res = await get("example.com", "/over-limit");
      assert.equal(res.headers["content-type"], "text/html; charset=utf-8");
      assert.equal(res.headers["content-length"], "2097153");
      assert.equal(res.text, big);
    });

    it("serves non-HTML as the original", async () => {
      await enableZone();
      origin.pages.set("/data.json", { type: "application/json", body: '{"a":1}' });
      origin.pages.set("/notes.txt", { type: "text/plain", body: "<p>not html</p>" });
      const json = await get("example.com", "/data.json");
      assert.equal(json.status, 200);
      assert.equal(json.headers["content-type"], "application/json");
      assert.equal(json.text, '{"a":1}');
      const text = await get("example.com", "/notes.txt");
      assert.equal(text.headers["content-type"], "text/plain");
      assert.equal(text.text, "<p>not html</p>");
    });

    it("serves an origin error page as it came", async () => {
      await enableZone();
      const res = await get("example.com", "/missing");
      assert.equal(res.status, 404);
      assert.equal(res.text, "<h1>Not here</h1>");
      const page = await fx.api.content.markdown.fetch({}, { url: edge("example.com", "/missing") });
      assert.deepEqual(page.converted ? undefined : page.response.status, 404);
    });
  });

  describe("edge errors", () => {
    it("answers 404 for a host no zone serves", async () => {
      const res = await get("unknown.org", "/");
      assert.equal(res.status, 404);
      assert.equal(
        (res.json as { errors: { message: string }[] }).errors[0]!.message,
        "no zone serves host unknown.org",
      );
    });

    it("answers 502 for a zone without origin or with an unreachable one", async () => {
      const bare = await fx.api.content.zones.create({}, { name: "bare.com" });
      const none = await get("bare.com", "/");
      assert.equal(none.status, 502);
      assert.match(
        (none.json as { errors: { message: string }[] }).errors[0]!.message,
        new RegExp(`^zone bare\\.com has no origin \\(PUT /__emulator/content/zones/${bare.id}/origin\\)$`),
      );
      await origin.stop();
      const down = await get("example.com", "/docs/guide");
      assert.equal(down.status, 502);
      assert.match(
        (down.json as { errors: { message: string }[] }).errors[0]!.message,
        /^origin of example\.com unreachable/,
      );
    });

    it("the control route validates the origin URL and the zone", async () => {
      const bad = await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, {
        body: { url: "ftp://x" },
      });
      assert.equal(bad.status, 400);
      assert.equal(
        (bad.json as { errors: { message: string }[] }).errors[0]!.message,
        "url: must be an absolute http(s) URL without query or fragment",
      );
      const missing = await fx.http("PUT", `/__emulator/content/zones/${"0".repeat(32)}/origin`, {
        body: { url: origin.url },
      });
      assert.equal(missing.status, 404);
    });

    it("fetchMarkdown refuses a relative URL locally", async () => {
      await assert.rejects(
        fx.api.content.markdown.fetch({}, { url: "/docs/guide" }),
        (e: unknown) =>
          e instanceof ValidationError &&
          /fetchMarkdown: url: must be an absolute http\(s\) URL/.test(e.message),
      );
    });
  });
});
