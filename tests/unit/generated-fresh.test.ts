/**
 * sdk/generated/ is what the generator writes from the contract and the overlay, byte for byte; a
 * change of the contract shows up as a stale module naming the operation and the field; the
 * generated request schemas refuse in the project's words and the response schemas read openly.
 */
import { strict as assert } from "node:assert";
import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { generate, generateFromProject, projectContract } from "../../contract/generate";
import { formatted, formattedFiles, GENERATED_DIR } from "../../contract/generate/write";
import { loadOverlay } from "../../contract/overlay-schema";
import { AiSearchCreateInstanceBody, AiSearchFetchInstanceResult } from "../../sdk/generated/search";
import { describeIssues } from "../../sdk/validate";

/** The lines of `after` that `before` lacks: what a reader of the diff would see first. */
const added = (before: string, after: string) => {
  const old = new Set(before.split("\n"));
  return after.split("\n").filter((l) => !old.has(l));
};

describe("the generated wire schemas (sdk/generated)", function () {
  this.timeout(60_000);

  it("are exactly what the generator writes from the contract and the overlay", async function () {
    const files = await formattedFiles();
    assert.deepEqual(
      [...files.keys()].sort(),
      readdirSync(GENERATED_DIR).sort(),
      "one module per area, no other",
    );
    for (const [name, text] of files)
      assert.ok(
        readFileSync(resolve(GENERATED_DIR, name), "utf8") === text,
        `sdk/generated/${name} is stale: run npm run build (differs at ${added(
          readFileSync(resolve(GENERATED_DIR, name), "utf8"),
          text,
        )
          .slice(0, 3)
          .join(" | ")})`,
      );
  });

  it("a changed contract field reaches its module, and a removed one disappears", async function () {
    const contract = projectContract();
    const create = contract.operations.find((o) => o.operationId === "ai-search-create-instance");
    const schema = create?.requestBody?.content["application/json"]?.schema;
    // The contract's own object, edited in place (a parse would edit a copy).
    const props: unknown =
      schema && typeof schema === "object" ? Reflect.get(schema, "properties") : undefined;
    assert.ok(props && typeof props === "object" && "chunk_size" in props && "rewrite_query" in props);
    props.chunk_size = { type: "string", maxLength: 12 };
    delete props.rewrite_query;
    const [before, after] = await Promise.all([
      formattedFiles(),
      formatted(generate(contract, loadOverlay())),
    ]);
    const search = (m: Map<string, string>) => m.get("search.ts") ?? "";
    const body = (text: string) =>
      /export const AiSearchCreateInstanceBody = strict\(\{[\s\S]*?\n\}\);/.exec(text)?.[0] ?? "";
    assert.match(body(search(after)), /chunk_size: lengthIn\(str\(\), undefined, 12\)\.optional\(\)/);
    assert.doesNotMatch(body(search(after)), /\brewrite_query:/);
    assert.match(body(search(before)), /rewrite_query: bool\(\)\.optional\(\)/);
    for (const other of ["builds.ts", "email.ts", "meetings.ts"])
      assert.equal(after.get(other), before.get(other));
  });

  it("an overlay rule's keyword set to null takes the contract's check away, and only there", async function () {
    const overlay = loadOverlay();
    overlay.rules.push({
      operation: "POST /accounts/{account_id}/builds/triggers",
      in: "requestBody",
      field: "build_token_uuid",
      set: { format: null },
      why: "a test",
    });
    const after = (await formatted(generate(projectContract(), overlay))).get("builds.ts") ?? "";
    const body = /export const CreateTriggerBody = strict\(\{[\s\S]*?\n\}\);/.exec(after)?.[0] ?? "";
    assert.match(body, /\n {2}build_token_uuid: str\(\),\n/);
    assert.match(body, /repo_connection_uuid: formatted\(str\(\), "uuid"\)/);
  });

  it("a `*` rule applies to every operation that has its place, and one that matches none is refused", function () {
    const without = loadOverlay();
    without.rules = without.rules.filter((r) => r.operation !== "*");
    const plain = generate(projectContract(), without);
    const ruled = generateFromProject();
    for (const area of ["builds.ts", "meetings.ts", "search.ts"]) {
      assert.match(plain.get(area) ?? "", /\baccount_id: str\(\)/);
      assert.doesNotMatch(ruled.get(area) ?? "", /\baccount_id: str\(\)/, area);
      assert.match(ruled.get(area) ?? "", /account_id: lengthIn\(str\(\), 1, 32\)/);
    }
    // Zone paths have no account_id: they are left as they are.
    assert.match(ruled.get("content.ts") ?? "", /strict\(\{ zone_id: str\(\), setting_id: str\(\) \}\)/);
    const stray = loadOverlay();
    stray.rules.push({
      operation: "*",
      in: "path",
      field: "no_such_id",
      set: { maxLength: 3 },
      why: "a test",
    });
    assert.throws(
      () => generate(projectContract(), stray),
      /rule \* path no_such_id: no operation has that place/,
    );
  });

  it("refuse a request in the project's words, naming each field", function () {
    const r = AiSearchCreateInstanceBody.safeParse({
      id: "docs",
      chunk_size: "large",
      chunk_overlap: 31,
      tpyo: true,
      source_params: { web_crawler: { discover_options: { limit: 0, source: "everything" } } },
    });
    assert.equal(r.success, false);
    assert.deepEqual(describeIssues(r.error!), [
      { field: "chunk_overlap", rule: "must be between 0 and 30" },
      { field: "chunk_size", rule: "must be a number" },
      { field: "source_params.web_crawler.discover_options.limit", rule: "must be between 1 and 100000" },
      {
        field: "source_params.web_crawler.discover_options.source",
        rule: "must be one of all, sitemaps, links",
      },
      { field: "tpyo", rule: "is not a known field" },
    ]);
  });

  it("read an answer openly: a field or an enum value added later is kept", function () {
    const answer = {
      id: "docs",
      created_at: "2026-11-28T00:00:00Z",
      modified_at: "2026-11-28T00:00:00Z",
      status: "a-state-from-next-year",
      brand_new: { x: 1 },
    };
    const r = AiSearchFetchInstanceResult.safeParse(answer);
    assert.ok(r.success, r.success ? "" : JSON.stringify(r.error.issues));
    assert.deepEqual(r.data, answer);
  });
});
