import { strict as assert } from "node:assert";
import { chunkText, queryTerms, terms } from "../../emulator/search/chunks";
import {
  FilterError,
  lastUserText,
  matches,
  rank,
  replyFrom,
  type Candidate,
} from "../../emulator/search/retrieval";

const words = (n: number, prefix = "w"): string =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");

function candidate(id: string, text: string, extra: Partial<Candidate> = {}): Candidate {
  return {
    id,
    key: `docs/${id}.md`,
    indexed_at: Date.parse("2026-01-01T00:00:00Z"),
    chunk: { index: 0, text, start_byte: 0, end_byte: Buffer.byteLength(text) },
    ...extra,
  };
}

const OPTIONS = { mode: "and", threshold: 0, max: 10, fusion: "rrf", reranking: false } as const;

describe("search emulator: chunking", () => {
  it("splits by words with the overlap a percentage of the chunk size", () => {
    const text = words(200);
    const chunks = chunkText(text, { chunk_size: 64, chunk_overlap: 25 });
    // 64 words per chunk, the next 48 words on (16 overlap): starts 0, 48, 96, 144.
    assert.deepEqual(
      chunks.map((c) => c.text.split(" ")[0]),
      ["w0", "w48", "w96", "w144"],
    );
    assert.equal(chunks[3]!.text.split(" ").length, 56);
    assert.equal(chunks[1]!.start_byte, Buffer.byteLength(words(48)) + 1);
    assert.equal(chunks[1]!.end_byte - chunks[1]!.start_byte, Buffer.byteLength(chunks[1]!.text));
  });

  it("keeps one chunk with chunk: false, none for an empty text, and counts UTF-8 bytes", () => {
    assert.equal(chunkText(words(500), { chunk: false, chunk_size: 64 }).length, 1);
    assert.deepEqual(chunkText("   ", { chunk_size: 64 }), []);
    const [one] = chunkText("héllo wörld", { chunk_size: 64 });
    assert.deepEqual([one!.start_byte, one!.end_byte], [0, 13]);
  });

  it("tokenizes lowercase runs of letters and digits", () => {
    assert.deepEqual(terms("Retry-After: 2 Times, ÉTÉ!"), ["retry", "after", "2", "times", "été"]);
  });

  it("leaves stopwords out of a query, unless nothing else is left", () => {
    assert.deepEqual(queryTerms("How do I purge the cache?"), ["purge", "cache"]);
    assert.deepEqual(queryTerms("what is it"), ["what", "is", "it"]);
  });
});

describe("search emulator: ranking", () => {
  const corpus = [
    candidate("a", "cache cache purge"),
    candidate("b", "cache purge purge purge"),
    candidate("c", "cache only"),
    candidate("d", "nothing relevant"),
  ];

  it("scores (matched / terms) × f / (f + 1) and ranks by score, ties by chunk id", () => {
    const and = rank("Cache purge", corpus, OPTIONS);
    assert.deepEqual(
      and.map((c) => [c.id, c.score, c.scoring_details.keyword_score, c.scoring_details.keyword_rank]),
      [
        ["b", 0.8, 4, 1],
        ["a", 0.75, 3, 2],
      ],
    );
    const or = rank("cache purge", corpus, { ...OPTIONS, mode: "or" });
    assert.deepEqual(
      or.map((c) => [c.id, c.score]),
      [
        ["b", 0.8],
        ["a", 0.75],
        ["c", 0.25],
      ],
    );
    const tie = rank("cache", [candidate("z", "cache"), candidate("y", "cache")], OPTIONS);
    assert.deepEqual(
      tie.map((c) => c.id),
      ["y", "z"],
    );
  });

  it("drops what is under the threshold, cuts to max, and reports reranking when on", () => {
    assert.deepEqual(
      rank("cache purge", corpus, { ...OPTIONS, mode: "or", threshold: 0.4 }).map((c) => c.id),
      ["b", "a"],
    );
    assert.deepEqual(
      rank("cache purge", corpus, { ...OPTIONS, max: 1 }).map((c) => c.id),
      ["b"],
    );
    const [top] = rank("cache", corpus, { ...OPTIONS, reranking: true });
    assert.equal(top!.scoring_details.reranking_score, top!.score);
    assert.deepEqual(rank("?!", corpus, OPTIONS), []);
  });

  it("filters on metadata, the folder and the timestamp, in three forms", () => {
    const tagged = [
      candidate("a", "cache", { metadata: { team: "ops", rank: 2 } }),
      candidate("b", "cache", { metadata: { team: "web", rank: 5 }, key: "other/b.md" }),
    ];
    const ids = (filters: Record<string, unknown>) =>
      rank("cache", tagged, { ...OPTIONS, filters }).map((c) => c.id);
    assert.deepEqual(ids({ team: "ops" }), ["a"]);
    assert.deepEqual(ids({ rank: { $gte: 3 } }), ["b"]);
    assert.deepEqual(ids({ team: { $in: ["ops", "web"] } }), ["a", "b"]);
    assert.deepEqual(ids({ type: "eq", key: "folder", value: "other/" }), ["b"]);
    assert.deepEqual(
      ids({
        type: "or",
        filters: [
          { type: "eq", key: "team", value: "web" },
          { type: "lt", key: "rank", value: 3 },
        ],
      }),
      ["a", "b"],
    );
    assert.throws(() => matches({ team: { $like: "o%" } }, {}), FilterError);
    assert.throws(() => matches({ type: "and", filters: "x" }, {}), FilterError);
  });
});

describe("search emulator: the chat reply", () => {
  it("names the sources and quotes the first sentence of the best chunk, title lines skipped", () => {
    const chunks = rank(
      "purge",
      [candidate("a", "# docs/a.md\n\nCaching. A purge empties it. More.")],
      OPTIONS,
    );
    assert.equal(replyFrom("purge", chunks), "From docs/a.md: Caching.");
    assert.equal(replyFrom("nothing", []), 'No indexed content matches "nothing".');
  });

  it("asks the last user message that has text", () => {
    assert.equal(
      lastUserText([
        { role: "user", content: "first" },
        { role: "assistant", content: "answer" },
        { role: "user", content: null },
      ]),
      "first",
    );
    assert.equal(lastUserText([{ role: "system", content: "be brief" }]), undefined);
  });
});
