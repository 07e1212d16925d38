/**
 * A small, strict parser and evaluator for the rule expressions markdown conversion needs: a host, a
 * path prefix, or custom-hostname metadata. Anything outside this grammar is refused with a reason and
 * an offset, so a rule the emulator cannot honour never passes silently.
 *
 *   expr       := or
 *   or         := and (("or" | "||") and)*
 *   and        := unary (("and" | "&&") unary)*
 *   unary      := ("not" | "!") unary | "(" expr ")" | test
 *   test       := value ("eq" | "==" | "ne" | "!=" | "contains") STRING
 *               | value "in" "{" STRING+ "}"
 *               | ("starts_with" | "ends_with") "(" value "," STRING ")"
 *   value      := "http.host" | "http.request.uri.path"
 *               | "lookup_json_string" "(" "cf.hostname.metadata" "," STRING ")"
 *   STRING     := '"' (any character but '"' and '\', or '\"', or '\\')* '"'
 */

export type ValueRef =
  { kind: "field"; field: "http.host" | "http.request.uri.path" } | { kind: "metadata"; key: string };

export type Expr =
  | { kind: "and" | "or"; left: Expr; right: Expr }
  | { kind: "not"; expr: Expr }
  | { kind: "eq" | "ne" | "contains" | "starts_with" | "ends_with"; value: ValueRef; literal: string }
  | { kind: "in"; value: ValueRef; set: string[] };

/** What a request offers to an expression. */
export interface RequestFacts {
  /** Lowercase host without port. */
  host: string;
  /** Path without the query. */
  path: string;
  /** Custom metadata of the custom hostname the request came in on; empty otherwise. */
  metadata: Readonly<Record<string, string>>;
}

export class ExpressionError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`${reason} at offset ${offset}`);
  }
}

type Token =
  | { t: "word"; v: string; at: number }
  | { t: "string"; v: string; at: number }
  | { t: "punct"; v: "(" | ")" | "{" | "}" | "," | "==" | "!=" | "&&" | "||" | "!"; at: number }
  | { t: "end"; at: number };

const FIELDS = new Set(["http.host", "http.request.uri.path"]);
const OPERATORS = new Set(["eq", "ne", "==", "!=", "contains"]);

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === "==" || two === "!=" || two === "&&" || two === "||") {
      out.push({ t: "punct", v: two, at: i });
      i += 2;
      continue;
    }
    if (c === "(" || c === ")" || c === "{" || c === "}" || c === "," || c === "!") {
      out.push({ t: "punct", v: c, at: i });
      i++;
      continue;
    }
    if (c === '"') {
      const start = i;
      let v = "";
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionError("unterminated string", start);
        const d = src[i]!;
        if (d === '"') break;
        if (d === "\\") {
          const e = src[i + 1];
          if (e !== '"' && e !== "\\") throw new ExpressionError('unsupported escape (only \\" and \\\\)', i);
          v += e;
          i += 2;
          continue;
        }
        v += d;
        i++;
      }
      out.push({ t: "string", v, at: start });
      i++;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i));
    if (!m) throw new ExpressionError(`unexpected character ${JSON.stringify(c)}`, i);
    out.push({ t: "word", v: m[0], at: i });
    i += m[0].length;
  }
  out.push({ t: "end", at: src.length });
  return out;
}

class Parser {
  #pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const e = this.#or();
    const t = this.#peek();
    if (t.t !== "end") throw new ExpressionError(`unexpected ${describe(t)}`, t.at);
    return e;
  }

  #peek(): Token {
    return this.tokens[this.#pos]!;
  }
  #take(): Token {
    return this.tokens[this.#pos++]!;
  }
  #isWord(v: string): boolean {
    const t = this.#peek();
    return t.t === "word" && t.v === v;
  }
  #isPunct(v: string): boolean {
    const t = this.#peek();
    return t.t === "punct" && t.v === v;
  }
  #expectPunct(v: string): void {
    const t = this.#take();
    if (t.t !== "punct" || t.v !== v)
      throw new ExpressionError(`expected "${v}" but found ${describe(t)}`, t.at);
  }
  #string(): string {
    const t = this.#take();
    if (t.t !== "string")
      throw new ExpressionError(`expected a quoted string but found ${describe(t)}`, t.at);
    return t.v;
  }

  #or(): Expr {
    let left = this.#and();
    while (this.#isWord("or") || this.#isPunct("||")) {
      this.#take();
      left = { kind: "or", left, right: this.#and() };
    }
    return left;
  }

  #and(): Expr {
    let left = this.#unary();
    while (this.#isWord("and") || this.#isPunct("&&")) {
      this.#take();
      left = { kind: "and", left, right: this.#unary() };
    }
    return left;
  }

  #unary(): Expr {
    if (this.#isWord("not") || this.#isPunct("!")) {
      this.#take();
      return { kind: "not", expr: this.#unary() };
    }
    if (this.#isPunct("(")) {
      this.#take();
      const e = this.#or();
      this.#expectPunct(")");
      return e;
    }
    return this.#test();
  }

  #test(): Expr {
    const t = this.#peek();
    if (t.t === "word" && (t.v === "starts_with" || t.v === "ends_with")) {
      this.#take();
      this.#expectPunct("(");
      const value = this.#value();
      this.#expectPunct(",");
      const literal = this.#string();
      this.#expectPunct(")");
      return { kind: t.v, value, literal };
    }
    const value = this.#value();
    const op = this.#take();
    const opText = op.t === "word" || op.t === "punct" ? op.v : "";
    if (opText === "in") {
      this.#expectPunct("{");
      const set: string[] = [];
      while (this.#peek().t === "string") set.push(this.#string());
      if (set.length === 0)
        throw new ExpressionError("expected at least one quoted string in the set", this.#peek().at);
      this.#expectPunct("}");
      return { kind: "in", value, set };
    }
    if (!OPERATORS.has(opText)) {
      throw new ExpressionError(
        `unsupported operator ${describe(op)} (supported: eq, ne, ==, !=, contains, in)`,
        op.at,
      );
    }
    const literal = this.#string();
    const kind = opText === "==" ? "eq" : opText === "!=" ? "ne" : (opText as "eq" | "ne" | "contains");
    return { kind, value, literal };
  }

  #value(): ValueRef {
    const t = this.#take();
    if (t.t === "word" && FIELDS.has(t.v))
      return { kind: "field", field: t.v as "http.host" | "http.request.uri.path" };
    if (t.t === "word" && t.v === "lookup_json_string") {
      this.#expectPunct("(");
      const src = this.#take();
      if (src.t !== "word" || src.v !== "cf.hostname.metadata") {
        throw new ExpressionError(
          `lookup_json_string supports only cf.hostname.metadata, not ${describe(src)}`,
          src.at,
        );
      }
      this.#expectPunct(",");
      const key = this.#string();
      this.#expectPunct(")");
      return { kind: "metadata", key };
    }
    throw new ExpressionError(
      `unsupported field ${describe(t)} (supported: http.host, http.request.uri.path, lookup_json_string(cf.hostname.metadata, "key"))`,
      t.at,
    );
  }
}

function describe(t: Token): string {
  if (t.t === "end") return "end of expression";
  if (t.t === "string") return `string ${JSON.stringify(t.v)}`;
  return JSON.stringify(t.v);
}

/** Parses an expression or throws an ExpressionError naming the reason and the offset. */
export function parseExpression(src: string): Expr {
  return new Parser(tokenize(src)).parse();
}

function resolve(value: ValueRef, facts: RequestFacts): string {
  if (value.kind === "metadata")
    return Object.hasOwn(facts.metadata, value.key) ? (facts.metadata[value.key] ?? "") : "";
  return value.field === "http.host" ? facts.host : facts.path;
}

export function evaluate(expr: Expr, facts: RequestFacts): boolean {
  switch (expr.kind) {
    case "and":
      return evaluate(expr.left, facts) && evaluate(expr.right, facts);
    case "or":
      return evaluate(expr.left, facts) || evaluate(expr.right, facts);
    case "not":
      return !evaluate(expr.expr, facts);
    case "eq":
      return resolve(expr.value, facts) === expr.literal;
    case "ne":
      return resolve(expr.value, facts) !== expr.literal;
    case "contains":
      return resolve(expr.value, facts).includes(expr.literal);
    case "starts_with":
      return resolve(expr.value, facts).startsWith(expr.literal);
    case "ends_with":
      return resolve(expr.value, facts).endsWith(expr.literal);
    case "in":
      return expr.set.includes(resolve(expr.value, facts));
  }
}
