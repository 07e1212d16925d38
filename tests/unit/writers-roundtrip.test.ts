/**
 * Every writer of untrusted text, fed hostile strings, must write a document that holds exactly them
 * (read back by the reader the document's consumer uses), or refuse with its typed error.
 *
 * The strings: quotes, backticks, `${`, `$$`, `*\/`, every line ending (\r, NEL, U+2028/9), controls,
 * DEL, C1, bidi and zero-width characters, noncharacters, lone surrogates, YAML specials, numbers and
 * words YAML reads as other types, long keys, `fn::` and `<<` keys, `__proto__`; as names, ids,
 * values and keys, nested. Each fixed case once, then SAMPLES generated cases (fast-check, a fixed
 * seed: WRITERS_SEED=<n> tries another, and a failure names the seed and the case).
 *
 * The writers (add one to WRITERS: write a sample's files, read a batch back in one go):
 * - the YAML program of `discover --write-program --language yaml`: Main.yaml read by pulumi-yaml
 *   v1.38.1's own loader, Pulumi.yaml by the CLI's project loader (tools/yaml-roundtrip, one process
 *   for all cases);
 * - the TypeScript program: index.ts compiled with the typescript package (syntax errors fail) and run
 *   with stand-ins for the package's classes and pulumi.Config, capturing every resource's arguments;
 *   its Pulumi.yaml read by the CLI's project loader;
 * - the bulk import file: JSON.parse.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import ts from "typescript";
import { placeholderKey, placeholdersOf, resourceName, type Adoption } from "../../provider/discovery/adopt";
import type { DiscoveredObject } from "../../provider/discovery/list";
import {
  ProjectNameError,
  UnwritableValueError,
  adoptsOnCreate,
  importFile,
  importIdInput,
  programFiles,
  tokenOf,
} from "../../provider/discovery/program";
import type { ResourceKind } from "../../provider/types";
import { loadYamlPrograms, refTo, untag, type LoadedProgram } from "../helpers/yaml-roundtrip";

const SEED = Number(process.env.WRITERS_SEED ?? 20261124);
const SAMPLES = Number(process.env.WRITERS_SAMPLES ?? 300);

/** One case: hostile text in every place a writer puts text read from an account. */
interface Sample {
  readonly project: string;
  /** An object's name (a resource name is made from it). */
  readonly label: string;
  /** An object's id: importId, the `import` option, the import file's id. */
  readonly id: string;
  /** A build variable's name and value; a secret one's name. */
  readonly key: string;
  readonly value: string;
  readonly secretKey: string;
  /** Nested settings: hostile keys and values at depth. */
  readonly nested: Record<string, unknown>;
}

/** Pieces hostile strings are made of. */
const PIECES = [
  "${",
  "}",
  "${a}",
  "${a.b[0]}",
  "$$",
  "$${a}",
  "$",
  "`",
  "${`x`}",
  "'",
  '"',
  "\\",
  "\\u0041",
  "*/",
  "/*",
  "//",
  "\n",
  "\r",
  "\r\n",
  "\u0085",
  "\u2028",
  "\u2029",
  "\t",
  "\v",
  "\f",
  "\u0000",
  "\u0007",
  "\u001b[2J",
  "\u001b]52;c;ZXZpbA==\u0007",
  "\u007f",
  "\u0080",
  "\u009b",
  "\u009f",
  "\u00a0",
  "\u00ad",
  "\u061c",
  "\u200b",
  "\u200d",
  "\u202e",
  "\u2066",
  "\ufeff",
  "\ufff9",
  "\ufffe",
  "\uffff",
  "\ud83d\ude00",
  "é",
  ": ",
  ":",
  "#",
  " #",
  "- ",
  "-",
  "&a",
  "*a",
  "!",
  "!!str",
  "|",
  ">",
  "%",
  "@",
  "?",
  "? ",
  ",",
  "[",
  "]",
  "{",
  "}",
  "---",
  "...",
  " ",
  "  ",
  "fn::join",
  "Fn::Secret",
  "fn::invoke",
  "fn::a:b:c",
  "fn::",
  "xfn::a:b",
  "<<",
  "0x1",
  "1e3",
  "0o7",
  "1_000",
  ".5",
  "-.inf",
  ".nan",
  "true",
  "True",
  "yes",
  "no",
  "on",
  "null",
  "Null",
  "~",
  "",
  "a",
  "__proto__",
  "constructor",
];

/** Whole strings worth trying as they are (besides each piece alone). */
const WHOLE = [
  ...PIECES,
  "\ud800",
  "a\udfff",
  "x".repeat(1030),
  `${"k".repeat(1100)}\n`,
  " leading",
  "trailing ",
  "a: b",
  "- a",
];

const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WHOLE) },
  {
    weight: 5,
    arbitrary: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostile },
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.boolean(),
  fc.constant(null),
);

/** Objects built with defineProperty, so that a `__proto__` key is an own property as JSON.parse makes it. */
const record = (entries: readonly [string, unknown][]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
  return out;
};

const nested: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{
  node: unknown;
  obj: Record<string, unknown>;
}>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { maxLength: 3 }),
    tie("obj"),
  ),
  obj: fc.uniqueArray(fc.tuple(hostile, tie("node")), { maxLength: 3, selector: ([k]) => k }).map(record),
})).obj;

// Mostly valid, so that most cases reach the values; an invalid one must be refused.
const projectName: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,100}$/) },
  hostile,
  fc.constantFrom("", "x".repeat(101), "a\nname: evil", "a b"),
);

const sampleArb: fc.Arbitrary<Sample> = fc.record({
  project: projectName,
  label: hostile,
  id: hostile,
  key: hostile,
  value: hostile,
  secretKey: hostile,
  nested,
});

/** Each whole string alone in every place, the others plain. */
const FIXED: Sample[] = WHOLE.flatMap((s) => [
  { project: "p", label: s, id: s, key: "K", value: s, secretKey: "S", nested: record([["k", s]]) },
  {
    project: "p",
    label: "l",
    id: "i",
    key: s,
    value: "v",
    secretKey: `${s}.`,
    nested: record([[s, [s, { [s]: s }]]]),
  },
]);

/** The program's adoptions of a sample: a trigger's variables (one secret) and a registration with settings. */
function adoptionsOf(s: Sample): Adoption[] {
  const names = new Set<string>();
  const keys = new Set<string>();
  const objectOf = (kind: ResourceKind): DiscoveredObject => ({
    kind,
    id: s.id,
    resourceId: s.id,
    importId: s.id,
    name: s.label,
    scope: {},
    settings: {},
  });
  const vars = objectOf("TriggerEnvVars");
  const varsName = resourceName(vars.kind, s.label, names);
  const variables = record([
    [s.key, { value: s.value, isSecret: false }],
    ...(s.secretKey === s.key ? [] : ([[s.secretKey, { value: "", isSecret: true }]] as [string, unknown][])),
  ]);
  const varsInputs = { triggerUuid: s.id, variables };
  const domain = objectOf("DomainRegistration");
  return [
    {
      object: vars,
      name: varsName,
      inputs: varsInputs,
      placeholders: placeholdersOf(varsName, vars, varsInputs, keys),
      identity: {},
    },
    {
      object: domain,
      name: resourceName(domain.kind, s.label, names),
      inputs: { domainName: s.value, settings: s.nested },
      placeholders: [],
      identity: {},
    },
  ];
}

/** Inputs as the program must hold them: each placeholder's place a reference to its key. */
function withRefs(a: Adoption, inputs: Record<string, unknown>): unknown {
  const clone = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(clone)
      : v !== null && typeof v === "object"
        ? record(Object.entries(v).map(([k, x]) => [k, clone(x)]))
        : v;
  const copy = clone(inputs);
  for (const p of a.placeholders) {
    let at: unknown = copy;
    for (const step of p.path.slice(0, -1)) at = (at as Record<string, unknown>)[step];
    Object.defineProperty(at, p.path[p.path.length - 1]!, {
      value: refTo(p.key),
      enumerable: true,
      writable: true,
    });
  }
  return copy;
}

/** A value in a form deepStrictEqual compares by content alone: key order and prototypes left out. */
function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v !== null && typeof v === "object")
    return {
      entries: Object.keys(v)
        .sort()
        .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
    };
  return v;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const VALID_PROJECT = /^[A-Za-z0-9_.-]{1,100}$/;

/** Every string of a value, keys (with whether nested) included. */
function* strings(v: unknown, depth = 0): Generator<{ text: string; key: boolean; depth: number }> {
  if (typeof v === "string") yield { text: v, key: false, depth };
  else if (Array.isArray(v)) for (const x of v) yield* strings(x, depth + 1);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      yield { text: k, key: true, depth };
      yield* strings(x, depth + 1);
    }
}

type Files = Record<string, string>;

interface Writer {
  readonly name: string;
  /** The sample's files as the writer writes them; throws its typed error to refuse. */
  write(s: Sample): Files;
  /** Why the writer must refuse the sample, or undefined when it must hold it. */
  mustRefuse(s: Sample): string | undefined;
  /** Whether `err` is this writer's refusal of `s` (a typed error naming what it refused). */
  isRefusal(s: Sample, err: unknown): boolean;
  /** What the written files of each sample read back as (one batch for all), in expected()'s shape. */
  readBack(written: readonly Files[]): unknown[];
  expected(s: Sample): unknown;
}

const projectRefusal = (s: Sample): string | undefined =>
  VALID_PROJECT.test(s.project) ? undefined : "not a Pulumi project name";

const isProjectRefusal = (s: Sample, err: unknown): boolean =>
  err instanceof ProjectNameError && err.project === s.project;

/** pulumi-yaml: the project, the config keys and each resource, or the loaders' errors. */
function readYaml(loaded: LoadedProgram): unknown {
  if (loaded.errors.length || !loaded.program) return { errors: loaded.errors };
  const p = loaded.program;
  return {
    project: loaded.project,
    config: p.config,
    resources: p.resources.map((r) => ({
      name: r.name,
      type: r.type,
      properties: untag(r.properties, `resource ${r.name}`),
      import: r.import,
    })),
  };
}

const yamlWriter: Writer = {
  name: "YAML program (discover --language yaml)",
  write: (s) => programFiles("yaml", s.project, adoptionsOf(s)),
  mustRefuse(s) {
    const project = projectRefusal(s);
    if (project) return project;
    for (const a of adoptionsOf(s)) {
      const all = [...strings(a.inputs), { text: a.object.importId, key: false, depth: 0 }];
      for (const { text, key, depth } of all) {
        if (LONE_SURROGATE.test(text)) return "a lone surrogate";
        if (key && depth > 0 && /fn::/i.test(text)) return "a nested key holding fn::";
      }
    }
    return undefined;
  },
  isRefusal: (s, err) =>
    isProjectRefusal(s, err) ||
    (err instanceof UnwritableValueError &&
      err.language === "yaml" &&
      err.path.length > 0 &&
      adoptionsOf(s).some((a) => a.name === err.resource) &&
      err.message.includes(err.rule)),
  readBack: (written) =>
    loadYamlPrograms(
      written.map((f, i) => ({ id: String(i), source: f["Main.yaml"]!, project: f["Pulumi.yaml"]! })),
    ).map(readYaml),
  expected(s) {
    const adopted = adoptionsOf(s);
    return {
      project: s.project,
      config: adopted.flatMap((a) =>
        a.placeholders.map((p) => ({ key: p.key, type: "string", secret: true })),
      ),
      resources: adopted.map((a) => {
        const onCreate = adoptsOnCreate(a);
        return {
          name: a.name,
          type: tokenOf(a.object.kind),
          properties: withRefs(a, onCreate ? { importId: importIdInput(a), ...a.inputs } : a.inputs),
          import: onCreate ? null : a.object.importId,
        };
      }),
    };
  },
};

/** Runs a written index.ts with stand-ins for its two imports; what each `new Kind(name, args)` got. */
function runIndexTs(source: string): unknown {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, strict: true },
  });
  const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  if (errors.length) return { errors };
  const made: unknown[] = [];
  const resource = (kind: string) =>
    class {
      constructor(name: string, args: unknown) {
        made.push({ kind, name, args });
      }
    };
  const fakeRequire = (m: string): unknown => {
    if (m === "@pulumi/pulumi")
      return {
        Config: class {
          requireSecret = (key: string) => refTo(key);
        },
      };
    if (m === "pulumi-account-api") return new Proxy({}, { get: (_t, kind: string) => resource(kind) });
    throw new Error(`index.ts imports ${m}`);
  };
  const module = { exports: {} };
  // Running the written program is the point.
  new Function("require", "module", "exports", out.outputText)(fakeRequire, module, module.exports);
  return { made };
}

const typescriptWriter: Writer = {
  name: "TypeScript program (discover --language typescript)",
  write: (s) => programFiles("typescript", s.project, adoptionsOf(s)),
  mustRefuse: projectRefusal,
  isRefusal: isProjectRefusal,
  readBack(written) {
    const projects = loadYamlPrograms(written.map((f, i) => ({ id: String(i), source: f["Pulumi.yaml"]! })));
    return written.map((f, i) => ({
      project: projects[i]!.errors.length ? { errors: projects[i]!.errors } : projects[i]!.project,
      index: runIndexTs(f["index.ts"]!),
    }));
  },
  expected: (s) => ({
    project: s.project,
    index: {
      made: adoptionsOf(s).map((a) => ({
        kind: a.object.kind,
        name: a.name,
        args: withRefs(a, { importId: importIdInput(a), ...a.inputs }),
      })),
    },
  }),
};

const importFileWriter: Writer = {
  name: "bulk import file (discover --import-file)",
  write: (s) => ({ "import.json": importFile(adoptionsOf(s)) }),
  mustRefuse: () => undefined,
  isRefusal: () => false,
  readBack: (written) => written.map((f) => JSON.parse(f["import.json"]!) as unknown),
  expected: (s) => ({
    resources: adoptionsOf(s).map((a) => ({
      type: tokenOf(a.object.kind),
      name: a.name,
      id: a.object.importId,
    })),
  }),
};

const WRITERS: readonly Writer[] = [yamlWriter, typescriptWriter, importFileWriter];

/** A sample as a failure message shows it: every character visible. */
const shown = (s: Sample): string =>
  JSON.stringify(s, null, 1).replace(
    /[^\x20-\x7e\n]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

describe("writers of untrusted text: every string reads back exactly, or is refused", function () {
  // The first run builds tools/yaml-roundtrip (about 2 minutes without a Go build cache).
  this.timeout(15 * 60_000);
  const samples = [...FIXED, ...fc.sample(sampleArb, { seed: SEED, numRuns: SAMPLES })];

  for (const writer of WRITERS)
    it(`${writer.name}: ${FIXED.length} fixed and ${SAMPLES} generated cases (seed ${SEED})`, () => {
      const written: { sample: Sample; files: Files }[] = [];
      let refused = 0;
      for (const sample of samples) {
        const must = writer.mustRefuse(sample);
        let files: Files;
        try {
          files = writer.write(sample);
        } catch (err) {
          assert.ok(
            must,
            `${writer.name} refused a case it can hold (seed ${SEED}): ${String(err)}\n${shown(sample)}`,
          );
          assert.ok(
            writer.isRefusal(sample, err),
            `${writer.name}: not its typed refusal: ${String(err)}\n${shown(sample)}`,
          );
          refused++;
          continue;
        }
        assert.equal(
          must,
          undefined,
          `${writer.name} wrote a case it must refuse (${must}, seed ${SEED})\n${shown(sample)}`,
        );
        written.push({ sample, files });
      }
      const read = writer.readBack(written.map((w) => w.files));
      written.forEach((w, i) =>
        assert.deepStrictEqual(
          canon(read[i]),
          canon(writer.expected(w.sample)),
          `${writer.name}: the written files do not read back as the case (seed ${SEED})\n${shown(w.sample)}\n${Object.values(w.files).join("\n")}`,
        ),
      );
      assert.ok(
        written.length > samples.length / 3,
        `only ${written.length} of ${samples.length} cases written`,
      );
      console.log(`      ${writer.name}: ${written.length} read back exactly, ${refused} refused`);
    });
});

describe("placeholder keys", () => {
  it("differ for variable names that differ, and are the same on every run", () => {
    const first = new Set<string>();
    const a = ["S.1", "S-1", "S_1", "S 1", "S-1-" + "0".repeat(8)].map((k) =>
      placeholderKey("vars", k, first),
    );
    assert.equal(new Set(a).size, a.length, `distinct keys: ${a.join(", ")}`);
    const again = ["S.1", "S-1", "S_1", "S 1", "S-1-" + "0".repeat(8)].map((k) =>
      placeholderKey("vars", k, new Set()),
    );
    assert.deepEqual(again, a);
    for (const k of a) assert.match(k, /^[A-Za-z0-9_-]+$/);
  });

  it("differ across resources whose name and key join alike (a-b + c, a + b-c)", () => {
    const taken = new Set<string>();
    assert.notEqual(placeholderKey("a-b", "c", taken), placeholderKey("a", "b-c", taken));
  });
});
