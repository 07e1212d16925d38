/**
 * Type assertions in provider/: an `as` tells the compiler to trust the code instead of checking it,
 * so their number may only go down. Counted on the syntax tree: every `x as T` and `<T>x`, except
 * `as const` (which asserts nothing). Types derived from schemas, type guards or generics replace
 * them; `as unknown as` (an assertion past every check) has no place at all.
 */
import { strict as assert } from "node:assert";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "..", "..");
/** The figure today; lower it when an assertion goes, never raise it. */
const MAX_PROVIDER_ASSERTIONS = 11;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

interface Assertion {
  where: string;
  text: string;
  /** `x as unknown as T`: the inner assertion to `unknown` is the outer one's operand. */
  double: boolean;
}

function assertionsIn(file: string): Assertion[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: Assertion[] = [];
  const visit = (n: ts.Node): void => {
    const asConst = ts.isAsExpression(n) && ts.isTypeReferenceNode(n.type) && n.type.getText() === "const";
    if ((ts.isAsExpression(n) && !asConst) || ts.isTypeAssertionExpression(n)) {
      let inner = n.expression;
      while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
      const { line } = src.getLineAndCharacterOfPosition(n.getStart());
      out.push({
        where: `${relative(ROOT, file)}:${line + 1}`,
        text: n.getText().replace(/\s+/g, " "),
        double: ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword,
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe("type assertions in provider/", () => {
  const found = sources(join(ROOT, "provider")).flatMap(assertionsIn);

  it("counts the assertions it is meant to (the counter itself)", () => {
    const sample = join(ROOT, "tests", "unit", "type-assertions.test.ts");
    assert.ok(assertionsIn(sample).length === 0, "this file asserts nothing");
    assert.ok(found.length > 0, "provider/ was read");
  });

  it(`has at most ${MAX_PROVIDER_ASSERTIONS} \`as\` assertions`, () => {
    const list = found.map((a) => `${a.where}: ${a.text}`).join("\n");
    assert.ok(found.length <= MAX_PROVIDER_ASSERTIONS, `${found.length} assertions:\n${list}`);
  });

  it("has no `as unknown as`", () => {
    assert.deepEqual(
      found.filter((a) => a.double).map((a) => a.where),
      [],
    );
  });
});
