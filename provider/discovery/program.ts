/**
 * The files of a program that adopts objects (adopt.ts), and Pulumi's bulk import file.
 *
 * - TypeScript: the package's dynamic resources, each with `importId` (they cannot take the `import`
 *   option, pulumi#16175); create adopts the object and sets the program's inputs, which are its own.
 * - YAML: the native provider's resources with the `import` option: the engine reads the object and
 *   checks that the program's inputs match it. Where they could not match (adoptsOnCreate), the
 *   resource takes `importId` instead, which adopts on create as in TypeScript.
 * Every value read is untrusted: the program holds exactly it as data. TypeScript string literals are
 * JSON's; YAML strings are double-quoted with `$` doubled, since pulumi-yaml reads `${…}` anywhere in
 * a string as an expression. A value a language cannot hold exactly is refused (UnwritableValueError),
 * never approximated. A placeholder becomes the program's read of its secret configuration.
 */
import { terminalText } from "../../sdk/terminal-text";
import { roomOf } from "../kinds";
import type { Adoption, Placeholder } from "./adopt";

export const PROGRAM_LANGUAGES = ["typescript", "yaml"] as const;
export type ProgramLanguage = (typeof PROGRAM_LANGUAGES)[number];

/** The native provider's token of a kind. */
export const tokenOf = (kind: string): string => `account-api:index:${kind}`;

/** `importId` as the dynamic resources take it: the lister's `id` (the object's own, without its container's). */
export const importIdInput = (a: Adoption): string => a.object.id;

/**
 * Whether the YAML program adopts it with `importId` rather than the `import` option: where the
 * engine's import would not match the program. A secret the read cannot see; a kind whose room says
 * so (a trigger's variables: read by id alone, no key is named); an identity input the read by id
 * alone does not give back (a trigger's connection, a setting's zone, a named namespace): the engine
 * would replace it.
 */
export const adoptsOnCreate = (a: Adoption): boolean =>
  a.placeholders.length > 0 ||
  roomOf(a.object.kind).adoption?.onCreate === true ||
  Object.keys(a.identity).length > 0;

const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * A value the program's language cannot hold exactly: the writer refuses it rather than write a
 * program that would mean something else. Names the resource (and the object it adopts) and the field.
 */
export class UnwritableValueError extends Error {
  constructor(
    readonly language: ProgramLanguage,
    /** The resource name in the program, and the object it adopts (`Kind resourceId`). */
    readonly resource: string,
    readonly object: string,
    /** Where in the resource's inputs: property names from the top. */
    readonly path: readonly string[],
    readonly rule: string,
  ) {
    super(
      `a ${language} program cannot hold ${terminalText(fieldName(path))} of ${terminalText(object)} ` +
        `(resource ${terminalText(resource)}): ${rule}`,
    );
    this.name = new.target.name;
  }
}

/** A path as a reader finds it: `variables["S.1"].value`. */
export function fieldName(path: readonly string[]): string {
  if (path.length === 0) return "its inputs";
  return path
    .map((p, i) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `${i ? "." : ""}${p}` : `[${JSON.stringify(p)}]`))
    .join("");
}

/** How one language writes values: strings, and an object's entries (`top`: a resource's own inputs). */
interface Syntax {
  string(value: string, path: readonly string[]): string;
  entry(key: string, value: string, path: readonly string[], top: boolean): string;
}

/** A value as source text; each placeholder's place is `expr(placeholder)`. */
function literal(
  value: unknown,
  placeholders: readonly Placeholder[],
  expr: (p: Placeholder) => string,
  syntax: Syntax,
  indent: string,
  path: readonly string[] = [],
): string {
  const hit = placeholders.find((p) => samePath(p.path, path));
  if (hit) return expr(hit);
  const inner = (v: unknown, at: readonly string[]) =>
    literal(v, placeholders, expr, syntax, `${indent}  `, at);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v, i) => inner(v, [...path, String(i)]));
    return `[\n${items.map((s) => `${indent}  ${s}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const items = entries.map(([k, v]) => {
      const at = [...path, k];
      return `${indent}  ${syntax.entry(k, inner(v, at), at, path.length === 0)}`;
    });
    return `{\n${items.join(",\n")}\n${indent}}`;
  }
  if (typeof value === "string") return syntax.string(value, path);
  return JSON.stringify(value);
}

/**
 * Characters written as escapes in either language, though both could hold them raw: controls, line
 * and paragraph separators, bidi and zero-width format characters, noncharacters. A reviewer reads
 * the program's text as it is (no reordered or hidden text), and YAML cannot hold most of them raw.
 */
const UNSAFE_IN_SOURCE =
  // eslint-disable-next-line no-control-regex -- matching controls is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\uffff]/g;

const hex4 = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A TypeScript string literal: JSON's (lone surrogates escaped), with the characters above escaped too. */
const tsString = (value: string): string => JSON.stringify(value).replace(UNSAFE_IN_SOURCE, hex4);

/** A lone UTF-16 surrogate: no UTF-8 file, and so no YAML, can hold one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A YAML double-quoted scalar holding exactly `value` as YAML reads it: `\` and `"` escaped, every
 * character YAML may not hold raw or would fold (NEL and the line separators) as a `\u` escape.
 */
function yamlQuoted(value: string): string {
  const body = value
    .replace(/[\\"]/g, (ch) => `\\${ch}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .replace(UNSAFE_IN_SOURCE, hex4);
  return `"${body}"`;
}

/** pulumi-yaml reads `${…}` in a string as an expression and `$$` as `$` (ast/interpolation.go). */
const noInterpolation = (value: string): string => value.replace(/\$/g, "$$$$");

/**
 * A YAML implicit key longer than 1024 characters cannot be read (the YAML spec's limit, which
 * yaml.v3 enforces): a longer one is written as an explicit `? key : value` entry.
 */
const IMPLICIT_KEY_LIMIT = 1000;

const TYPESCRIPT_SYNTAX: Syntax = {
  string: (value) => tsString(value),
  // A literal `__proto__: v` sets the object's prototype; a computed key defines the property.
  entry: (key, value) => `${key === "__proto__" ? `[${tsString(key)}]` : tsString(key)}: ${value}`,
};

function yamlSyntax(a: Adoption): Syntax {
  const refuse = (path: readonly string[], rule: string): never => {
    throw new UnwritableValueError("yaml", a.name, `${a.object.kind} ${a.object.resourceId}`, path, rule);
  };
  const checked = (value: string, path: readonly string[]): string => {
    if (LONE_SURROGATE.test(value))
      refuse(
        path,
        "it holds a lone UTF-16 surrogate, which no UTF-8 file can hold (--language typescript can)",
      );
    return value;
  };
  return {
    string: (value, path) => yamlQuoted(noInterpolation(checked(value, path))),
    entry: (key, value, path, top) => {
      checked(key, path);
      // A resource's own input names are read as they are; a nested key is an expression like a value,
      // and one holding `fn::` anywhere may read as a builtin call (`fn::join`, or `…fn::pkg:fn`, an
      // invoke: pulumi-yaml's ast/expr.go matches it unanchored).
      if (!top && /fn::/i.test(key))
        refuse(
          path,
          "pulumi-yaml reads a key holding `fn::` as a builtin function call (--language typescript can hold it)",
        );
      const k = yamlQuoted(top ? key : noInterpolation(key));
      return k.length > IMPLICIT_KEY_LIMIT ? `? ${k} : ${value}` : `${k}: ${value}`;
    },
  };
}

/**
 * Pulumi's rule for a project name (sdk/go/common/tokens.ValidateProjectName): 1 to 100 characters
 * of letters, digits, `_`, `.` and `-`. Undefined when valid, else why not.
 */
export function projectNameProblem(name: string): string | undefined {
  if (name === "") return "a project name may not be empty";
  if (name.length > 100) return `a project name is at most 100 characters (this one has ${name.length})`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    return "a project name may only hold letters, digits, hyphens, underscores and periods";
  return undefined;
}

/** A project name that is not Pulumi's: the program would not load. */
export class ProjectNameError extends Error {
  constructor(
    readonly project: string,
    readonly rule: string,
  ) {
    super(`project name "${terminalText(project)}": ${rule}`);
    this.name = new.target.name;
  }
}

function checkProject(project: string): void {
  const problem = projectNameProblem(project);
  if (problem !== undefined) throw new ProjectNameError(project, problem);
}

/** npm's rule for a package name (lower case, URL-safe): a private package may go without one. */
const NPM_NAME = /^[a-z0-9][a-z0-9._-]{0,213}$/;

function typescript(project: string, adoptions: readonly Adoption[]): Record<string, string> {
  const kinds = [...new Set(adoptions.map((a) => a.object.kind))].sort();
  const hasSecrets = adoptions.some((a) => a.placeholders.length > 0);
  const lines = [
    "// Written by `account-api discover --write-program`: each resource adopts an existing object",
    "// (importId) with the inputs it had when it was read. Review, then `pulumi up`.",
    ...(hasSecrets ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    `import { ${kinds.join(", ")} } from "pulumi-account-api";`,
    "",
    ...(hasSecrets ? ["const config = new pulumi.Config();", ""] : []),
  ];
  const secret = (p: Placeholder): string => `config.requireSecret(${tsString(p.key)})`;
  for (const a of adoptions) {
    const args = { importId: importIdInput(a), ...a.inputs };
    lines.push(
      `new ${a.object.kind}(${tsString(a.name)}, ${literal(args, a.placeholders, secret, TYPESCRIPT_SYNTAX, "")});`,
    );
  }
  return {
    "Pulumi.yaml": `name: ${yamlQuoted(project)}\nruntime: nodejs\ndescription: objects adopted by account-api discover\n`,
    "index.ts": `${lines.join("\n")}\n`,
    "package.json": `${JSON.stringify(
      {
        ...(NPM_NAME.test(project) ? { name: project } : {}),
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": "^3.259.0", "pulumi-account-api": "*" },
        devDependencies: { "@types/node": "^22", typescript: "~5.9.0" },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node" },
        files: ["index.ts"],
      },
      null,
      2,
    )}\n`,
  };
}

/**
 * The YAML program: Pulumi.yaml names the project, Main.yaml (which pulumi-yaml reads instead of
 * Pulumi.yaml when it is there) holds the resources. The Pulumi CLI reads Pulumi.yaml itself and
 * writes it back through yaml.v3 before reading it again (workspace.LoadProjectBytes), which changes
 * some strings (a `<<` key reads as a merge, a key "\n" as ""): no value read from the account goes there.
 */
function yaml(project: string, adoptions: readonly Adoption[]): Record<string, string> {
  const secrets = adoptions.flatMap((a) => a.placeholders);
  const lines = [
    "# Written by `account-api discover --write-program`: each resource adopts an existing object",
    "# (the import option, or importId where a secret cannot be read back). Review, then `pulumi up`.",
    "# The project is in Pulumi.yaml.",
  ];
  if (secrets.length) {
    lines.push("config:");
    for (const p of secrets) lines.push(`  ${yamlQuoted(p.key)}:`, "    type: string", "    secret: true");
  }
  lines.push("resources:");
  // Placeholder keys are [A-Za-z0-9_-] (adopt.ts): a reference to the config key, never escaped.
  const secret = (p: Placeholder): string => yamlQuoted(`\${${p.key}}`);
  for (const a of adoptions) {
    const onCreate = adoptsOnCreate(a);
    const props = onCreate ? { importId: importIdInput(a), ...a.inputs } : a.inputs;
    const syntax = yamlSyntax(a);
    lines.push(
      `  ${yamlQuoted(a.name)}:`,
      `    type: ${tokenOf(a.object.kind)}`,
      `    properties: ${literal(props, a.placeholders, secret, syntax, "    ")}`,
    );
    if (!onCreate)
      lines.push("    options:", `      import: ${syntax.string(a.object.importId, ["import"])}`);
  }
  return {
    "Pulumi.yaml": [
      `name: ${yamlQuoted(project)}`,
      "runtime: yaml",
      "description: objects adopted by account-api discover (the program is in Main.yaml)",
      "",
    ].join("\n"),
    "Main.yaml": `${lines.join("\n")}\n`,
  };
}

/** The program's files by name, for a project named `project`. */
export function programFiles(
  language: ProgramLanguage,
  project: string,
  adoptions: readonly Adoption[],
): Record<string, string> {
  checkProject(project);
  return language === "typescript" ? typescript(project, adoptions) : yaml(project, adoptions);
}

/** Pulumi's bulk import file (`pulumi import --file F`), with the native provider's tokens. */
export function importFile(adoptions: readonly Adoption[]): string {
  const resources = adoptions.map((a) => ({
    type: tokenOf(a.object.kind),
    name: a.name,
    id: a.object.importId,
  }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
