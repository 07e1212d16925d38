/**
 * Every writer of untrusted text, fed hostile strings, must write a document that holds exactly them
 * (read back by the reader the document's consumer uses), or refuse with its typed error.
 *
 * The strings (tests/helpers/hostile-strings.ts, plus random UTF-16 units): quotes, backticks, `${`,
 * `$$`, `*\/`, every line ending (\r, NEL, U+2028/9), controls, DEL, C1, bidi and zero-width
 * characters, noncharacters, lone surrogates, YAML, Markdown and HTML specials, numbers and words YAML
 * reads as other types, long keys, `fn::` and `<<` keys, `__proto__`; as names, ids, values and keys,
 * nested. Fixed cases once, then SAMPLES generated cases per writer (fast-check, a fixed seed:
 * WRITERS_SEED=<n> and WRITERS_SAMPLES=<n> try others, and a failure names the seed and the case).
 *
 * The writers:
 * - the YAML program of `discover --write-program --language yaml`: Main.yaml read by pulumi-yaml
 *   v1.38.1's own loader, Pulumi.yaml by the CLI's project loader (tools/yaml-roundtrip, one process
 *   for all cases);
 * - the TypeScript program: every index.ts type-checked by tsc in one program (strict, against
 *   declarations of its two imports), then compiled and run with stand-ins for the package's classes
 *   and pulumi.Config, capturing every resource's arguments; its Pulumi.yaml read by the project loader;
 * - the bulk import file: JSON.parse;
 * - drift's Markdown job summary (rendered by markdown-it, CommonMark and GFM tables, HTML and
 *   autolinks on: each value one run of text in its own cell), text report, JUnit (parsed by
 *   fast-xml-parser), SARIF and JSON report (JSON.parse);
 * - terminal text (sdk/terminal-text.ts, which every verb's text output uses): no control reaches
 *   the terminal, and the escapes undone give the value back.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import ts from "typescript";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  renderJunit,
  renderMarkdown,
  renderSarif,
  renderText,
  sarifText,
  shown as driftShown,
  summarize,
  visible,
  type DriftReport,
  type ResourceDrift,
} from "../../provider/drift";
import { readMarkdown } from "../helpers/markdown";
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
import { HOSTILE_PIECES } from "../helpers/hostile-strings";
import { terminalText } from "../../sdk/terminal-text";

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

const PIECES = HOSTILE_PIECES;

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

/**
 * Type-checks written index.ts files in one compiler run, each a module of its own, against
 * declarations of its two imports that take any arguments: what tsc finds that a parse cannot (a
 * duplicate key in an object literal, a computed key of the wrong type). Diagnostics per source.
 */
function typeCheckIndexTs(sources: readonly string[]): string[][] {
  const stubs = `declare module "@pulumi/pulumi" {
  export class Config { requireSecret(key: string): unknown; }
}
declare module "pulumi-account-api" {
  type Kind = new (name: string, args: Record<string, unknown>) => unknown;
  export const BuildTrigger: Kind, TriggerEnvVars: Kind, RepoConnection: Kind,
    ZoneContentConverter: Kind, ConfigRule: Kind, MeetingTemplate: Kind,
    DomainRegistration: Kind, SearchInstance: Kind;
}
`;
  const files = new Map<string, string>([["/w/stubs.d.ts", stubs]]);
  sources.forEach((src, i) => files.set(`/w/p${i}.ts`, src));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleDetection: ts.ModuleDetectionKind.Force,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError) => {
    const text = files.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, onError);
  };
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name) ?? ts.sys.readFile(name);
  const program = ts.createProgram([...files.keys()], options, host);
  const out: string[][] = sources.map(() => []);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const at = /^\/w\/p(\d+)\.ts$/.exec(d.file?.fileName ?? "");
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (at) out[Number(at[1])]!.push(message);
    else throw new Error(`type check: ${d.file?.fileName ?? "(global)"}: ${message}`);
  }
  return out;
}

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
    const checked = typeCheckIndexTs(written.map((f) => f["index.ts"]!));
    return written.map((f, i) => ({
      project: projects[i]!.errors.length ? { errors: projects[i]!.errors } : projects[i]!.project,
      index: checked[i]!.length ? { typeErrors: checked[i] } : runIndexTs(f["index.ts"]!),
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

// Drift's writers: the Markdown job summary, the text report, JUnit, SARIF and JSON.

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const driftHostile = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ unit: anyUnit, maxLength: 4 })), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.join(""))
  .filter((s) => s !== "");
const value = fc.oneof(
  driftHostile,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(driftHostile, { maxLength: 2 }),
  fc.dictionary(driftHostile, driftHostile, { maxKeys: 2, noNullPrototype: true }),
);

interface DriftSample {
  stack: string;
  name: string;
  id: string;
  path: string;
  old: unknown;
  now: unknown;
  reason: string;
}

const driftSample = fc.record<DriftSample>({
  stack: driftHostile,
  name: driftHostile,
  id: driftHostile,
  path: driftHostile,
  old: value,
  now: value,
  reason: driftHostile,
});

/** A drifted resource, a gone one, and one whose read failed, all named by the sample. */
function reportOf(s: DriftSample): DriftReport {
  const base = (kind: string): Omit<ResourceDrift, "status" | "changes"> => ({
    urn: `urn:pulumi:${s.stack}::p::account-api:${kind}::${s.name}`,
    type: `account-api:${kind}`,
    name: s.name,
    id: s.id,
  });
  return summarize(s.stack, [
    {
      ...base("BuildTrigger"),
      status: "drifted",
      changes: [{ path: s.path, old: s.old, new: s.now, restorable: false, note: s.reason }],
    },
    { ...base("ConfigRule"), status: "gone", changes: [] },
    { ...base("RepoConnection"), status: "unchecked", reason: s.reason, failed: true, changes: [] },
  ]);
}

/** Display text never holds a control, line ending, bidi or zero-width character. */
const isVisible = (text: string): boolean => visible(text) === text;

const RUNS = { numRuns: SAMPLES, seed: SEED };

describe("drift's writers read back what the account holds, whatever it holds", () => {
  it("Markdown: every value is one run of text in its own cell; no row, heading, link, image or HTML of its own", () => {
    fc.assert(
      fc.property(driftSample, (s) => {
        const read = readMarkdown(renderMarkdown(reportOf(s)));
        assert.deepEqual(
          read.blocks.filter((b) => b.endsWith("_open")),
          [
            "heading_open",
            "paragraph_open",
            "table_open",
            "thead_open",
            "tr_open",
            ...Array<string>(6).fill("th_open"),
            "tbody_open",
            ...[1, 2, 3].flatMap(() => ["tr_open", ...Array<string>(6).fill("td_open")]),
            "bullet_list_open",
            "list_item_open",
            "paragraph_open",
            "list_item_open",
            "paragraph_open",
          ],
        );
        assert.deepEqual(read.headings, [{ text: `Drift: stack ${driftShown(s.stack)}`, markup: [] }]);
        const [, drifted, gone, failed] = read.rows;
        for (const row of [drifted, gone, failed]) {
          assert.equal(row?.length, 6);
          assert.ok(
            row?.every((c) => c.markup.length === 0),
            JSON.stringify(row),
          );
        }
        const what = (kind: string) => `account-api:${kind} ${driftShown(s.name)}`;
        assert.equal(drifted?.[0]?.text, what("BuildTrigger"));
        assert.equal(drifted?.[2]?.text, driftShown(s.path));
        assert.deepEqual(JSON.parse(drifted?.[3]?.text ?? ""), s.old);
        assert.deepEqual(JSON.parse(drifted?.[4]?.text ?? ""), s.now);
        assert.equal(drifted?.[5]?.text, driftShown(s.reason));
        assert.equal(gone?.[0]?.text, what("ConfigRule"));
        assert.equal(failed?.[2]?.text, driftShown(s.reason));
      }),
      RUNS,
    );
  });

  it("text: one line per item, no control of the account's, each name as shown, each value as JSON", () => {
    fc.assert(
      fc.property(driftSample, (s) => {
        const lines = renderText(reportOf(s)).split("\n");
        assert.ok(lines.every(isVisible));
        assert.equal(
          lines[0],
          `account-api:BuildTrigger ${driftShown(s.name)} (${driftShown(s.id)}): drifted`,
        );
        const change = lines[1] ?? "";
        assert.ok(change.startsWith(`  ${driftShown(s.path)}: `));
        assert.ok(change.endsWith(` (${driftShown(s.reason)})`));
        assert.equal(lines[2], `account-api:ConfigRule ${driftShown(s.name)} (${driftShown(s.id)}): gone`);
        assert.equal(
          lines[4],
          `account-api:RepoConnection ${driftShown(s.name)} (${driftShown(s.id)}): could not be checked: ${driftShown(s.reason)}`,
        );
      }),
      RUNS,
    );
  });

  it("JUnit: well-formed XML whose names, messages and bodies are the shown values", () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      trimValues: false,
      parseTagValue: false,
      parseAttributeValue: false,
      isArray: (n) => n === "testcase" || n === "testsuite",
    });
    fc.assert(
      fc.property(driftSample, (s) => {
        const xml = renderJunit(reportOf(s));
        assert.equal(XMLValidator.validate(xml), true);
        const doc = parser.parse(xml) as {
          testsuites: { testsuite: { name: string; testcase: Record<string, unknown>[] }[] };
        };
        const [suite] = doc.testsuites.testsuite;
        assert.equal(suite?.name, `drift: stack ${driftShown(s.stack)}`);
        const [drifted, gone, failed] = suite?.testcase ?? [];
        assert.deepEqual(
          [drifted?.classname, drifted?.name],
          ["account-api:BuildTrigger", driftShown(s.name)],
        );
        const failure = drifted?.failure as { message: string; "#text": string };
        assert.equal(failure.message, `1 property changed outside the program: ${driftShown(s.path)}`);
        const body = failure["#text"];
        assert.ok(body.startsWith(`${driftShown(s.path)}: `) && body.endsWith(` (${driftShown(s.reason)})`));
        assert.ok(!body.includes("\n") && isVisible(body));
        assert.equal(
          (gone?.failure as { message: string }).message,
          `deleted outside the program (id ${driftShown(s.id)})`,
        );
        assert.equal((failed?.error as { message: string }).message, driftShown(s.reason));
      }),
      RUNS,
    );
  });

  it("SARIF: the structured fields hold the values exactly; messages are shown text, brackets escaped", () => {
    fc.assert(
      fc.property(driftSample, (s) => {
        const r = reportOf(s);
        const log = JSON.parse(
          JSON.stringify(renderSarif(r, { projectFile: "Pulumi.yaml", version: "0" })),
        ) as {
          runs: {
            results: {
              message: { text: string };
              properties?: Record<string, unknown>;
              locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
            }[];
          }[];
        };
        const [changed, gone, failed] = log.runs[0]?.results ?? [];
        assert.deepEqual(changed?.properties, { path: s.path, old: s.old, new: s.now, restorable: false });
        assert.equal(changed?.locations[0]?.logicalLocations[0]?.fullyQualifiedName, r.resources[0]?.urn);
        for (const m of [changed, gone, failed]) assert.ok(isVisible(m?.message.text ?? ""));
        assert.ok(
          changed?.message.text.startsWith(sarifText(`account-api:BuildTrigger ${driftShown(s.name)}`)),
        );
        assert.ok(failed?.message.text.endsWith(`could not be read: ${sarifText(driftShown(s.reason))}`));
      }),
      RUNS,
    );
  });

  it("JSON: the report parses back to itself", () => {
    fc.assert(
      fc.property(driftSample, (s) => {
        const r = reportOf(s);
        assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
      }),
      RUNS,
    );
  });
});

// Terminal text: what every verb prints of an account's names (discover, drift, recover, errors).

/** terminalText's escapes undone: the one value a printed line stands for. */
function unescapeTerminal(text: string): string {
  return text.replace(
    /\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|(.))/g,
    (_m, x?: string, u?: string, c?: string) => {
      if (x !== undefined || u !== undefined) return String.fromCharCode(parseInt(x ?? u ?? "", 16));
      const named: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\\": "\\" };
      const v = c === undefined ? undefined : named[c];
      if (v === undefined) throw new Error(`not an escape terminalText writes: \\${c}`);
      return v;
    },
  );
}

describe("terminal text holds every value inert, and stands for exactly that value", () => {
  it(`${SAMPLES} generated strings of hostile pieces and random UTF-16 units (seed ${SEED})`, () => {
    const text = fc.oneof(
      driftHostile,
      fc.string({ unit: "binary", maxLength: 16 }),
      fc.array(fc.constantFrom(...HOSTILE_PIECES), { maxLength: 8 }).map((p) => p.join("")),
    );
    fc.assert(
      fc.property(text, (s) => {
        const printed = terminalText(s);
        assert.ok(
          // eslint-disable-next-line no-control-regex -- no control may reach the terminal
          !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\u200e\u200f]/.test(
            printed,
          ),
          JSON.stringify(printed),
        );
        assert.ok(!LONE_SURROGATE.test(printed), JSON.stringify(printed));
        assert.equal(unescapeTerminal(printed), s);
      }),
      RUNS,
    );
  });
});
