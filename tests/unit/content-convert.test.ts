import { strict as assert } from "node:assert";
import { convertHtml, yamlScalar } from "../../emulator/markdown/convert";
import { acceptsMarkdown, isHtml, splitEdgeUrl } from "../../emulator/content/edge";
import { countTokens } from "../../emulator/markdown/tokens";
import { parseContentSignal, parseMarkdownDocument } from "../../sdk/content";

const page = (head: string, body: string): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe("content conversion (pure)", () => {
  describe("frontmatter", () => {
    it("takes the name= form over og: even when og: comes first", () => {
      const html = page(
        `<meta property="og:title" content="OG title">
         <meta property="og:description" content="OG description">
         <meta name="title" content="Real title">
         <meta name="description" content="Real description">
         <meta property="og:image" content="https://example.com/a.png">`,
        "<p>Hi</p>",
      );
      const { frontmatter, markdown } = convertHtml(html);
      assert.deepEqual(frontmatter, {
        title: "Real title",
        description: "Real description",
        image: "https://example.com/a.png",
      });
      assert.ok(
        markdown.startsWith(
          "---\ntitle: Real title\ndescription: Real description\nimage: https://example.com/a.png\n---\n\nHi",
        ),
        markdown,
      );
    });

    it("falls back to og: when the name= form is missing or empty", () => {
      const html = page(
        `<meta name="title" content="  "><meta property="og:title" content="OG title">
         <meta property="og:description" content="OG description">`,
        "<p>Hi</p>",
      );
      assert.deepEqual(convertHtml(html).frontmatter, { title: "OG title", description: "OG description" });
    });

    it("emits only the fields with a value, in title, description, image order", () => {
      const html = page(
        `<meta property="og:image" content="/i.png"><meta name="description" content="D">`,
        "<p>x</p>",
      );
      assert.ok(convertHtml(html).markdown.startsWith('---\ndescription: D\nimage: "/i.png"\n---\n\nx'));
    });

    it("is omitted entirely without a supported meta tag (a <title> element is not one)", () => {
      const html = page(`<title>Doc title</title><meta name="keywords" content="a,b">`, "<h1>Hello</h1>");
      const { markdown, frontmatter } = convertHtml(html);
      assert.deepEqual(frontmatter, {});
      assert.equal(markdown, "# Hello\n");
    });

    it("quotes values YAML would misread", () => {
      assert.equal(yamlScalar("Plain words"), "Plain words");
      assert.equal(yamlScalar("Title: with colon"), '"Title: with colon"');
      assert.equal(yamlScalar("yes"), '"yes"');
      assert.equal(yamlScalar("2026 report"), '"2026 report"');
      assert.equal(yamlScalar('"quoted"'), '"\\"quoted\\""');
      assert.equal(yamlScalar("C# tips"), "C# tips");
      assert.equal(yamlScalar("see #3"), '"see #3"');
    });
  });

  describe("body", () => {
    it("strips header, footer, nav, script and style and converts the rest", () => {
      const html = page(
        "<style>p { color: red }</style>",
        `<header><h1>Site header</h1></header>
         <nav><a href="/">Home</a></nav>
         <main><h1>Title</h1><p>Some <strong>bold</strong> and <a href="/x">a link</a>.</p>
         <ul><li>one</li><li>two</li></ul>
         <pre><code class="language-js">let a = 1;</code></pre></main>
         <script>alert("x")</script>
         <footer>© footer</footer>`,
      );
      const md = convertHtml(html).markdown;
      assert.equal(
        md,
        "# Title\n\nSome **bold** and [a link](/x).\n\n-   one\n-   two\n\n```js\nlet a = 1;\n```\n",
      );
      for (const gone of ["Site header", "Home", "alert", "color: red", "footer"])
        assert.ok(!md.includes(gone), gone);
    });
  });

  describe("JSON-LD", () => {
    it("puts every JSON-LD block last in one json fence, one per line, and keeps no other script", () => {
      const html = page(
        `<meta name="title" content="T">
         <script type="application/ld+json">{
           "@context": "https://schema.org", "@type": "Article", "headline": "A\\nB"
         }</script>`,
        `<p>Body</p><script type="Application/LD+JSON; charset=utf-8">[{"@type":"Thing"}]</script>
         <script type="application/ld+json">not json</script><script>var secret = 1;</script>`,
      );
      const { markdown, jsonLd } = convertHtml(html);
      assert.equal(
        markdown,
        '---\ntitle: T\n---\n\nBody\n\n```json\n{"@context":"https://schema.org","@type":"Article","headline":"A\\nB"}\n[{"@type":"Thing"}]\n```\n',
      );
      assert.equal(jsonLd.length, 2);
      assert.ok(!markdown.includes("secret"));
    });

    it("emits no block without JSON-LD", () => {
      assert.equal(convertHtml(page("", "<p>x</p>")).markdown, "x\n");
    });
  });

  describe("sdk parsing of a converted document", () => {
    it("splits frontmatter, body and JSON-LD, round-tripping the converter's output", () => {
      const html = page(
        `<meta name="title" content="Title: quoted"><meta property="og:image" content="https://e.com/i.png">
         <script type="application/ld+json">{"@type":"A"}</script><script type="application/ld+json">{"@type":"B"}</script>`,
        "<h2>Sub</h2><p>Text</p>",
      );
      const doc = parseMarkdownDocument(convertHtml(html).markdown);
      assert.deepEqual(doc.frontmatter, { title: "Title: quoted", image: "https://e.com/i.png" });
      assert.equal(doc.body, "## Sub\n\nText");
      assert.deepEqual(doc.jsonLd, [{ "@type": "A" }, { "@type": "B" }]);
    });

    it("keeps a trailing json code sample in the body when it is not JSON-LD", () => {
      const md = "Example:\n\n```json\nnot: json\n```\n";
      const doc = parseMarkdownDocument(md);
      assert.deepEqual(doc.jsonLd, []);
      assert.equal(doc.body, md.trim());
      assert.deepEqual(doc.frontmatter, {});
    });

    it("reads single-quoted and plain frontmatter values", () => {
      const doc = parseMarkdownDocument("---\ntitle: 'It''s'\ndescription: plain\nother: x\n---\n\nB\n");
      assert.deepEqual(doc.frontmatter, { title: "It's", description: "plain" });
      assert.equal(doc.body, "B");
    });

    it("parses the content-signal header", () => {
      assert.deepEqual(parseContentSignal("ai-train=yes, search=yes, ai-input=yes"), {
        "ai-train": "yes",
        search: "yes",
        "ai-input": "yes",
      });
    });
  });

  describe("edge helpers", () => {
    it("reads Accept media ranges", () => {
      assert.equal(acceptsMarkdown("text/markdown"), true);
      assert.equal(acceptsMarkdown("text/html, text/markdown;q=0.9"), true);
      assert.equal(acceptsMarkdown("Text/Markdown"), true);
      assert.equal(acceptsMarkdown("text/markdown;q=0"), false);
      assert.equal(acceptsMarkdown("text/html, */*"), false);
      assert.equal(acceptsMarkdown(undefined), false);
    });

    it("treats only HTML as convertible", () => {
      assert.equal(isHtml("text/html; charset=utf-8"), true);
      assert.equal(isHtml("application/xhtml+xml"), true);
      assert.equal(isHtml("application/json"), false);
      assert.equal(isHtml(null), false);
    });

    it("splits edge URLs", () => {
      assert.deepEqual(splitEdgeUrl("/__edge/Docs.Example.COM:8443/a/b%20c?x=1"), {
        host: "docs.example.com",
        path: "/a/b%20c",
        search: "?x=1",
      });
      assert.deepEqual(splitEdgeUrl("/__edge/example.com?q"), {
        host: "example.com",
        path: "/",
        search: "?q",
      });
    });

    it("counts tokens with a real BPE tokenizer (o200k_base)", () => {
      assert.equal(countTokens("hello world"), 2);
      assert.ok(countTokens("<|endoftext|>") > 1, "special tokens count as text");
      assert.ok(countTokens("<p>hello world</p>") > countTokens("hello world"));
    });

    it("counts a long run without whitespace in 256-character pieces, so it stays fast", () => {
      const run = "ab1".repeat(20_000);
      const started = performance.now();
      const total = countTokens(`start ${run} end`);
      assert.ok(performance.now() - started < 5_000);
      let pieces = countTokens("start ") + countTokens(" end");
      for (let i = 0; i < run.length; i += 256) pieces += countTokens(run.slice(i, i + 256));
      assert.equal(total, pieces);
      assert.equal(countTokens("x".repeat(256)), countTokens("x".repeat(256)));
    });
  });
});
