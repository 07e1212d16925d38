import { strict as assert } from "node:assert";
import {
  ExpressionError,
  evaluate,
  parseExpression,
  type RequestFacts,
} from "../../emulator/content/expression";

const facts = (o: Partial<RequestFacts> = {}): RequestFacts => ({
  host: "docs.example.com",
  path: "/docs/intro",
  metadata: {},
  ...o,
});

const matches = (expr: string, f: RequestFacts = facts()): boolean => evaluate(parseExpression(expr), f);

describe("content rule expressions", () => {
  describe("evaluates the supported forms", () => {
    const table: [string, Partial<RequestFacts>, boolean][] = [
      ['http.host eq "docs.example.com"', {}, true],
      ['http.host eq "www.example.com"', {}, false],
      ['http.host == "docs.example.com"', {}, true],
      ['http.host ne "docs.example.com"', {}, false],
      ['http.host != "www.example.com"', {}, true],
      ['starts_with(http.request.uri.path, "/docs/")', {}, true],
      ['starts_with(http.request.uri.path, "/blog/")', {}, false],
      ['ends_with(http.host, ".example.com")', {}, true],
      ['http.request.uri.path contains "intro"', {}, true],
      ['http.host in {"a.example.com" "docs.example.com"}', {}, true],
      ['http.host in {"a.example.com"}', {}, false],
      [
        'lookup_json_string(cf.hostname.metadata, "content_converter") eq "enabled"',
        { metadata: { content_converter: "enabled" } },
        true,
      ],
      ['lookup_json_string(cf.hostname.metadata, "content_converter") eq "enabled"', { metadata: {} }, false],
      ['lookup_json_string(cf.hostname.metadata, "content_converter") eq ""', { metadata: {} }, true],
      ['http.host eq "docs.example.com" and starts_with(http.request.uri.path, "/blog/")', {}, false],
      ['http.host eq "x" or starts_with(http.request.uri.path, "/docs/")', {}, true],
      ['http.host eq "x" || http.host eq "docs.example.com"', {}, true],
      ['http.host eq "docs.example.com" && not starts_with(http.request.uri.path, "/docs/")', {}, false],
      ['!(http.host eq "x")', {}, true],
      [
        '(http.host eq "x" or http.host eq "docs.example.com") and http.request.uri.path eq "/docs/intro"',
        {},
        true,
      ],
      ['http.request.uri.path eq "/say \\"hi\\""', { path: '/say "hi"' }, true],
    ];
    for (const [expr, f, expected] of table) {
      it(`${expr} → ${expected}`, () => assert.equal(matches(expr, facts(f)), expected));
    }
  });

  it("binds and tighter than or", () => {
    // false and false or true == (false and false) or true == true
    assert.equal(matches('http.host eq "x" and http.host eq "y" or http.host eq "docs.example.com"'), true);
    // true or false and false == true or (false and false) == true
    assert.equal(matches('http.host eq "docs.example.com" or http.host eq "x" and http.host eq "y"'), true);
  });

  describe("refuses what it does not support, naming the reason and offset", () => {
    const table: [string, RegExp][] = [
      ['http.cookie eq "a"', /^unsupported field "http.cookie" .* at offset 0$/],
      ['http.host matches "a.*"', /^unsupported operator "matches" .* at offset 10$/],
      ["http.host eq docs", /^expected a quoted string but found "docs" at offset 13$/],
      ['http.host eq "a', /^unterminated string at offset 13$/],
      ['http.host eq "a" and', /^unsupported field end of expression .* at offset 20$/],
      ['http.host eq "a" http.host eq "b"', /^unexpected "http.host" at offset 17$/],
      ['(http.host eq "a"', /^expected "\)" but found end of expression at offset 17$/],
      [
        'lookup_json_string(http.host, "k") eq "v"',
        /^lookup_json_string supports only cf.hostname.metadata, not "http.host" at offset 19$/,
      ],
      ["http.host in {}", /^expected at least one quoted string in the set at offset 14$/],
      ['http.host eq "a\\n"', /^unsupported escape .* at offset 15$/],
      ['http.host eq "a" ; drop', /^unexpected character ";" at offset 17$/],
      ["", /^unsupported field end of expression .* at offset 0$/],
    ];
    for (const [expr, message] of table) {
      it(JSON.stringify(expr), () =>
        assert.throws(
          () => parseExpression(expr),
          (e: unknown) => e instanceof ExpressionError && message.test(e.message),
        ),
      );
    }
  });
});
