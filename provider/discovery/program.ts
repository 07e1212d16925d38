/**
 * The files of a program that adopts objects (adopt.ts), and Pulumi's bulk import file.
 *
 * - TypeScript: the package's dynamic resources, each with `importId` (they cannot take the `import`
 *   option, pulumi#16175); create adopts the object and sets the program's inputs, which are its own.
 * - YAML: the native provider's resources with the `import` option: the engine reads the object and
 *   checks that the program's inputs match it. Where they could not match (adoptsOnCreate), the
 *   resource takes `importId` instead, which adopts on create as in TypeScript.
 * Values are written as JSON, which is valid TypeScript and YAML; a placeholder becomes the program's
 * read of its secret configuration.
 */
import type { Adoption, Placeholder } from "./adopt";

export const PROGRAM_LANGUAGES = ["typescript", "yaml"] as const;
export type ProgramLanguage = (typeof PROGRAM_LANGUAGES)[number];

/** The native provider's token of a kind. */
export const tokenOf = (kind: string): string => `account-api:index:${kind}`;

/** `importId` as the dynamic resources take it: the lister's `id` (the object's own, without its container's). */
export const importIdInput = (a: Adoption): string => a.object.id;

/**
 * Whether the YAML program adopts it with `importId` rather than the `import` option: where the
 * engine's import would not match the program. A secret the read cannot see; a trigger's variables
 * (read by id alone, no key is named); an identity input the read by id alone does not give back
 * (a trigger's connection, a setting's zone, a named namespace): the engine would replace it.
 */
export const adoptsOnCreate = (a: Adoption): boolean =>
  a.placeholders.length > 0 || a.object.kind === "TriggerEnvVars" || Object.keys(a.identity).length > 0;

const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/** A value as source text; each placeholder's place is `expr(placeholder)`. */
function literal(
  value: unknown,
  placeholders: readonly Placeholder[],
  expr: (p: Placeholder) => string,
  indent: string,
  path: readonly string[] = [],
): string {
  const hit = placeholders.find((p) => samePath(p.path, path));
  if (hit) return expr(hit);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = value.map((v, i) => literal(v, placeholders, expr, `${indent}  `, [...path, String(i)]));
    return `[\n${inner.map((s) => `${indent}  ${s}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const inner = entries.map(
      ([k, v]) =>
        `${indent}  ${JSON.stringify(k)}: ${literal(v, placeholders, expr, `${indent}  `, [...path, k])}`,
    );
    return `{\n${inner.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

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
  const secret = (p: Placeholder): string => `config.requireSecret(${JSON.stringify(p.key)})`;
  for (const a of adoptions) {
    const args = { importId: importIdInput(a), ...a.inputs };
    lines.push(
      `new ${a.object.kind}(${JSON.stringify(a.name)}, ${literal(args, a.placeholders, secret, "")});`,
    );
  }
  return {
    "Pulumi.yaml": `name: ${project}\nruntime: nodejs\ndescription: objects adopted by account-api discover\n`,
    "index.ts": `${lines.join("\n")}\n`,
    "package.json": `${JSON.stringify(
      {
        name: project,
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

function yaml(project: string, adoptions: readonly Adoption[]): Record<string, string> {
  const secrets = adoptions.flatMap((a) => a.placeholders);
  const lines = [
    "# Written by `account-api discover --write-program`: each resource adopts an existing object",
    "# (the import option, or importId where a secret cannot be read back). Review, then `pulumi up`.",
    `name: ${project}`,
    "runtime: yaml",
    "description: objects adopted by account-api discover",
  ];
  if (secrets.length) {
    lines.push("config:");
    for (const p of secrets)
      lines.push(`  ${JSON.stringify(p.key)}:`, "    type: string", "    secret: true");
  }
  lines.push("resources:");
  const secret = (p: Placeholder): string => JSON.stringify(`\${${p.key}}`);
  for (const a of adoptions) {
    const onCreate = adoptsOnCreate(a);
    const props = onCreate ? { importId: importIdInput(a), ...a.inputs } : a.inputs;
    lines.push(
      `  ${JSON.stringify(a.name)}:`,
      `    type: ${tokenOf(a.object.kind)}`,
      `    properties: ${literal(props, a.placeholders, secret, "    ")}`,
    );
    if (!onCreate) lines.push("    options:", `      import: ${JSON.stringify(a.object.importId)}`);
  }
  return { "Pulumi.yaml": `${lines.join("\n")}\n` };
}

/** The program's files by name, for a project named `project`. */
export function programFiles(
  language: ProgramLanguage,
  project: string,
  adoptions: readonly Adoption[],
): Record<string, string> {
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
