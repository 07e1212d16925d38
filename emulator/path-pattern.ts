/**
 * The pattern of a fault rule: a regular expression with JavaScript's syntax, matched in time linear
 * in the path's length. Rules come from whoever can reach the control API, and a backtracking engine
 * spends seconds per request on `^/client/v4/(a+)+$`, so rules are compiled to an automaton (a Pike
 * VM: every thread advances together, one step per character) instead of going to `RegExp`.
 *
 * The subset: literals and escapes, `.`, classes, groups (`(…)`, `(?:…)`, `(?<name>…)`), `|`, the
 * quantifiers `* + ? {n} {n,} {n,m}` (lazy ones match the same paths), and the anchors `^ $`. What
 * needs backtracking or is rarely useful on a path is refused naming it: backreferences, lookaround,
 * word boundaries.
 */

/** A pattern refused; `message` is the rule it breaks, for `path: <message>`. */
export class PathPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export const MAX_PATTERN_LENGTH = 512;
/** Bounds the automaton, so one request costs at most path length × this many steps per rule. */
const MAX_PROGRAM = 1_024;
const MAX_REPEAT = 100;

type CharTest = (c: number) => boolean;

type Node =
  | { kind: "char"; test: CharTest }
  | { kind: "alt"; options: Node[][] }
  | { kind: "repeat"; node: Node; min: number; max: number }
  | { kind: "bol" }
  | { kind: "eol" };

type Inst =
  | { op: "char"; test: CharTest }
  | { op: "split"; x: number; y: number }
  | { op: "jmp"; x: number }
  | { op: "bol" }
  | { op: "eol" }
  | { op: "match" };

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
const isDigit: CharTest = (c) => c >= 0x30 && c <= 0x39;
const isWord: CharTest = (c) =>
  isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
const not =
  (t: CharTest): CharTest =>
  (c) =>
    !t(c);
const single = (t: number | CharTest): CharTest => (typeof t === "number" ? (x) => x === t : t);
const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };

class Parser {
  #i = 0;
  constructor(private readonly src: string) {}

  parse(): Node[][] {
    const options = this.#alternatives();
    if (this.#i < this.src.length) throw new PathPatternError(`unmatched ")" at ${this.#i}`);
    return options;
  }

  #alternatives(): Node[][] {
    const options: Node[][] = [this.#sequence()];
    while (this.src[this.#i] === "|") {
      this.#i++;
      options.push(this.#sequence());
    }
    return options;
  }

  #sequence(): Node[] {
    const seq: Node[] = [];
    while (this.#i < this.src.length && this.src[this.#i] !== "|" && this.src[this.#i] !== ")") {
      const atom = this.#atom();
      const repeated = this.#quantifier(atom);
      seq.push(repeated);
    }
    return seq;
  }

  #atom(): Node {
    const c = this.src[this.#i++]!;
    switch (c) {
      case "^":
        return { kind: "bol" };
      case "$":
        return { kind: "eol" };
      case ".":
        return { kind: "char", test: (x) => !LINE_TERMINATORS.has(x) };
      case "[":
        return { kind: "char", test: this.#charClass() };
      case "(":
        return this.#group();
      case "\\":
        return { kind: "char", test: single(this.#escape(false)) };
      case "*":
      case "+":
      case "?":
        throw new PathPatternError(`nothing to repeat before "${c}" at ${this.#i - 1}`);
      default: {
        const code = c.charCodeAt(0);
        return { kind: "char", test: (x) => x === code };
      }
    }
  }

  #group(): Node {
    if (this.src.startsWith("?:", this.#i)) this.#i += 2;
    else if (this.src.startsWith("?<", this.#i) && !/^\?<[=!]/.test(this.src.slice(this.#i))) {
      const end = this.src.indexOf(">", this.#i);
      this.#i = end + 1;
    } else if (this.src[this.#i] === "?")
      throw new PathPatternError(
        `lookaround "(${this.src.slice(this.#i, this.#i + 3)}" is not supported (fault rules are matched in linear time)`,
      );
    const options = this.#alternatives();
    if (this.src[this.#i] !== ")") throw new PathPatternError(`unterminated group`);
    this.#i++;
    return { kind: "alt", options };
  }

  /** After `\`: one character (its code) or a class of them (its test). In a class, `\b` is a backspace. */
  #escape(inClass: boolean): number | CharTest {
    const c = this.src[this.#i++];
    if (c === undefined) throw new PathPatternError("a lone \\ at the end");
    const cls = CLASS_ESCAPES[c];
    if (cls) return cls;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (/[1-9]/.test(c) || c === "k")
      throw new PathPatternError(
        `backreference "\\${c}" is not supported (fault rules are matched in linear time)`,
      );
    if (c === "b" && inClass) return 0x08;
    if (c === "b" || c === "B") throw new PathPatternError(`word boundary "\\${c}" is not supported`);
    if (c === "0" && !/[0-9]/.test(this.src[this.#i] ?? "")) return 0;
    if (c === "x" || c === "u") {
      const len = c === "x" ? 2 : 4;
      const hex = this.src.slice(this.#i, this.#i + len);
      if (hex.length === len && /^[0-9a-fA-F]+$/.test(hex)) {
        this.#i += len;
        return Number.parseInt(hex, 16);
      }
    }
    if (/[A-Za-z0-9]/.test(c)) throw new PathPatternError(`escape "\\${c}" is not supported`);
    return c.charCodeAt(0);
  }

  #charClass(): CharTest {
    const negated = this.src[this.#i] === "^";
    if (negated) this.#i++;
    const parts: CharTest[] = [];
    while (this.src[this.#i] !== "]") {
      if (this.#i >= this.src.length) throw new PathPatternError("unterminated character class");
      const lo = this.#classAtom();
      if (this.src[this.#i] === "-" && this.src[this.#i + 1] !== "]" && this.#i + 1 < this.src.length) {
        this.#i++;
        const hi = this.#classAtom();
        if (typeof lo === "number" && typeof hi === "number") {
          parts.push((x) => x >= lo && x <= hi);
          continue;
        }
        // `[\d-x]`: the dash is a literal (JavaScript's reading without the `u` flag).
        parts.push(single(lo), single(0x2d), single(hi));
        continue;
      }
      parts.push(single(lo));
    }
    this.#i++;
    const inClass: CharTest = (x) => parts.some((p) => p(x));
    return negated ? not(inClass) : inClass;
  }

  /** One character (its code) or a class escape (its test). */
  #classAtom(): number | CharTest {
    const c = this.src[this.#i++]!;
    return c === "\\" ? this.#escape(true) : c.charCodeAt(0);
  }

  #quantifier(atom: Node): Node {
    let min: number;
    let max: number;
    const c = this.src[this.#i];
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.#i));
      // Not a quantifier: JavaScript reads a lone `{` as itself.
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) throw new PathPatternError(`numbers out of order in ${m[0]}`);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT))
        throw new PathPatternError(`${m[0]}: a count may be at most ${MAX_REPEAT}`);
      this.#i += m[0].length - 1;
    } else return atom;
    this.#i++;
    if (this.src[this.#i] === "?") this.#i++; // lazy: the same paths match
    if (atom.kind === "bol" || atom.kind === "eol")
      throw new PathPatternError(`nothing to repeat before "${c}"`);
    if (this.src[this.#i] && "*+?".includes(this.src[this.#i]!))
      throw new PathPatternError(`nothing to repeat before "${this.src[this.#i]}" at ${this.#i}`);
    return { kind: "repeat", node: atom, min, max };
  }
}

class Compiler {
  readonly prog: Inst[] = [];

  #emit(inst: Inst): number {
    if (this.prog.length >= MAX_PROGRAM)
      throw new PathPatternError(
        `too large once its repetitions are spelled out (at most ${MAX_PROGRAM} steps)`,
      );
    this.prog.push(inst);
    return this.prog.length - 1;
  }

  alternatives(options: Node[][]): void {
    // split L1, next; L1: seq; jmp end; next: split … ; the last option falls through.
    const jumps: number[] = [];
    options.forEach((seq, k) => {
      if (k === options.length - 1) {
        this.sequence(seq);
        return;
      }
      const split = this.#emit({ op: "split", x: 0, y: 0 });
      this.prog[split] = { op: "split", x: this.prog.length, y: 0 };
      this.sequence(seq);
      jumps.push(this.#emit({ op: "jmp", x: 0 }));
      this.prog[split] = { op: "split", x: split + 1, y: this.prog.length };
    });
    for (const j of jumps) this.prog[j] = { op: "jmp", x: this.prog.length };
  }

  sequence(seq: Node[]): void {
    for (const node of seq) this.node(node);
  }

  node(node: Node): void {
    switch (node.kind) {
      case "char":
        this.#emit({ op: "char", test: node.test });
        return;
      case "bol":
      case "eol":
        this.#emit({ op: node.kind });
        return;
      case "alt":
        this.alternatives(node.options);
        return;
      case "repeat":
        this.#repeat(node.node, node.min, node.max);
        return;
    }
  }

  #repeat(node: Node, min: number, max: number): void {
    for (let k = 0; k < min; k++) this.node(node);
    if (max === Infinity) {
      const split = this.#emit({ op: "split", x: 0, y: 0 });
      this.node(node);
      this.#emit({ op: "jmp", x: split });
      this.prog[split] = { op: "split", x: split + 1, y: this.prog.length };
      return;
    }
    const splits: number[] = [];
    for (let k = min; k < max; k++) {
      splits.push(this.#emit({ op: "split", x: 0, y: 0 }));
      this.node(node);
    }
    for (const s of splits) this.prog[s] = { op: "split", x: s + 1, y: this.prog.length };
  }
}

/** A compiled pattern: `test` says whether it matches anywhere in the text, like `RegExp#test`. */
export interface PathPattern {
  readonly source: string;
  test(text: string): boolean;
}

/** Compiles `source`, or throws PathPatternError naming what is refused. */
export function compilePathPattern(source: string): PathPattern {
  if (source.length > MAX_PATTERN_LENGTH)
    throw new PathPatternError(`must be at most ${MAX_PATTERN_LENGTH} characters`);
  try {
    new RegExp(source);
  } catch (e) {
    throw new PathPatternError(
      `must be a regular expression (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const compiler = new Compiler();
  compiler.alternatives(new Parser(source).parse());
  compiler.prog.push({ op: "match" });
  const prog = compiler.prog;
  return { source, test: (text) => run(prog, text) };
}

/** The Pike VM: the set of live threads advances one character at a time; no thread is ever retried. */
function run(prog: readonly Inst[], text: string): boolean {
  const seen = new Int32Array(prog.length).fill(-1);
  let generation = 0;
  /** Follows jumps, splits and anchors from `start`; threads waiting on a character go to `list`. */
  const add = (list: number[], start: number, pos: number): boolean => {
    const stack = [start];
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      const inst = prog[pc]!;
      if (inst.op === "match") return true;
      if (inst.op === "jmp") stack.push(inst.x);
      else if (inst.op === "split") stack.push(inst.y, inst.x);
      else if (inst.op === "bol") {
        if (pos === 0) stack.push(pc + 1);
      } else if (inst.op === "eol") {
        if (pos === text.length) stack.push(pc + 1);
      } else list.push(pc);
    }
    return false;
  };
  let current: number[] = [];
  if (add(current, 0, 0)) return true;
  for (let pos = 0; pos < text.length; pos++) {
    generation++;
    const next: number[] = [];
    const c = text.charCodeAt(pos);
    for (const pc of current) {
      const inst = prog[pc]!;
      if (inst.op === "char" && inst.test(c) && add(next, pc + 1, pos + 1)) return true;
    }
    // Unanchored, like RegExp#test: a new thread starts at every position.
    if (add(next, 0, pos + 1)) return true;
    current = next;
  }
  return false;
}
