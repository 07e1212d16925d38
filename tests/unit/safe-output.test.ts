/**
 * The two primitives every writer uses: files never written through a link or over what exists,
 * and terminal text with every control shown escaped.
 */
import { strict as assert } from "node:assert";
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UnsafeWriteError, replaceFileAtomic, writeNewFile } from "../../sdk/safe-files";
import { terminalText } from "../../sdk/terminal-text";
import { jsonForTerminal } from "../../cli/io";

describe("safe files", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "safe-files-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a new file, and refuses to overwrite an existing one unless asked", () => {
    const f = join(dir, "a.txt");
    writeNewFile(f, "one");
    assert.equal(readFileSync(f, "utf8"), "one");
    assert.throws(
      () => writeNewFile(f, "two"),
      (e: unknown) => e instanceof UnsafeWriteError && e.code === "EEXIST" && e.message.includes(f),
    );
    assert.equal(readFileSync(f, "utf8"), "one");
    writeNewFile(f, "two", { replace: true });
    assert.equal(readFileSync(f, "utf8"), "two");
  });

  it("never writes through a symbolic link, even when asked to replace", () => {
    const outside = join(dir, "outside.txt");
    writeFileSync(outside, "keep");
    const link = join(dir, "link.txt");
    symlinkSync(outside, link);
    for (const replace of [false, true])
      assert.throws(
        () => writeNewFile(link, "evil", { replace }),
        (e: unknown) => e instanceof UnsafeWriteError && e.code === "ESYMLINK",
      );
    assert.throws(() => replaceFileAtomic(link, "evil"), UnsafeWriteError);
    assert.equal(readFileSync(outside, "utf8"), "keep");
    const dangling = join(dir, "dangling.txt");
    symlinkSync(join(dir, "nowhere"), dangling);
    assert.throws(() => writeNewFile(dangling, "x"), UnsafeWriteError);
    assert.equal(statSync(join(dir, "nowhere"), { throwIfNoEntry: false }), undefined);
  });

  it("replaces atomically with the asked mode, through a temporary file of its own", () => {
    const f = join(dir, "state.json");
    // A planted link at the old fixed temporary name is not used.
    symlinkSync(join(dir, "victim"), `${f}.tmp`);
    replaceFileAtomic(f, "{}", { mode: 0o600 });
    replaceFileAtomic(f, '{"a":1}', { mode: 0o600 });
    assert.equal(readFileSync(f, "utf8"), '{"a":1}');
    assert.equal(statSync(f).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, "victim"), { throwIfNoEntry: false }), undefined);
    assert.deepEqual(readdirSync(dir).sort(), ["state.json", "state.json.tmp"]);
  });
});

describe("terminal text", () => {
  it("leaves plain text, including non-Latin letters and emoji, as it is", () => {
    for (const s of ["build main", "déploiement — ünïcode", "构建", "🚀 ship", ""])
      assert.equal(terminalText(s), s);
  });

  it("escapes every control, line ending, bidi control and lone surrogate, and the backslash", () => {
    const cases: [string, string][] = [
      ["a\x1b]52;c;ZXZpbA==\x07b", "a\\x1b]52;c;ZXZpbA==\\x07b"],
      ["x\r\ny", "x\\r\\ny"],
      ["a\u0085b\u2028c\u2029d", "a\\x85b\\u2028c\\u2029d"],
      ["\u202eevil", "\\u202eevil"],
      ["del\x7f", "del\\x7f"],
      ["lone\ud800", "lone\\ud800"],
      ["\udc00lone", "\\udc00lone"],
      ["back\\slash", "back\\\\slash"],
    ];
    for (const [input, shown] of cases) assert.equal(terminalText(input), shown, JSON.stringify(input));
  });

  it("never lets a control character through, whatever the input", () => {
    for (let c = 0; c < 0x10000; c++) {
      const out = terminalText(`a${String.fromCharCode(c)}b`);
      assert.doesNotMatch(
        out,
        // eslint-disable-next-line no-control-regex -- no control may come out
        /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
        `U+${c.toString(16)}`,
      );
    }
  });
});

describe("--json output on a terminal", () => {
  it("escapes what a terminal acts on, keeps its layout, and parses to the same value", () => {
    const value = {
      name: "a\u009b31m\u202eb\u2028c\u007f",
      list: ["\u001b]52;c;eA==\u0007", "plain", "😀 é"],
      "key\u0085": 1,
    };
    const text = jsonForTerminal(value);
    // eslint-disable-next-line no-control-regex -- none may reach the terminal
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(text.split("\n").length, JSON.stringify(value, null, 2).split("\n").length);
    assert.ok(text.includes("😀 é"));
  });
});
