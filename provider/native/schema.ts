/**
 * The Pulumi package schema of the native provider, made from the resource descriptions
 * (provider/resources/* /spec.ts, provider/runs/* /spec.ts) and the functions table: the same tables
 * the dynamic resources run on, so nothing is kept by hand. Deterministic: the same descriptions
 * give the same JSON, byte for byte (keys sorted where their order is free). docs/native-provider.md
 * says what each flag becomes.
 */
import { z } from "zod";
import { CONFIG_SETTINGS } from "../config";
import { hashName, type ResourceSpec } from "../core/define";
import { FUNCTIONS, INVOKES, type FunctionEntry } from "../functions/table";
import * as R from "../functions/results";
import { PROVIDER_KINDS, roomOf } from "../kinds";
import type { ProviderKind } from "../types";
import { loadFieldDocs, type FieldDocs } from "./field-docs";
import {
  ANY,
  PACKAGE_NAME,
  TypeCollector,
  pascal,
  type ComplexTypeSpec,
  type ObjectTypeSpec,
  type PropertySpec,
  type TypeSpec,
} from "./pulumi-types";

export { PACKAGE_NAME };

/** Every kind the native provider serves: the eight resources, then the three runs. */
export const NATIVE_KINDS: readonly ProviderKind[] = PROVIDER_KINDS;

/** The description of a kind: the table its schema entry is made from. */
export function specOf(kind: ProviderKind): ResourceSpec {
  return roomOf(kind).spec;
}

const TOKEN_PREFIX = `${PACKAGE_NAME}:index:`;

export function tokenOf(kind: ProviderKind): string {
  return `${TOKEN_PREFIX}${kind}`;
}

/** The kind of a resource token; only our own kinds, never a prototype key. */
export function kindOfToken(token: string): ProviderKind | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const name = token.slice(TOKEN_PREFIX.length);
  return NATIVE_KINDS.find((k) => k === name);
}

/** Zod types shared by several functions and runs: one named type each. */
const SHARED_TYPE_NAMES: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [R.BuildInfoSchema, "BuildInfo"],
  [R.BuildTokenInfoSchema, "BuildTokenInfo"],
  [R.DomainAvailabilitySchema, "DomainAvailability"],
  // A list result: its element needs a name of its own (a list is not named `<Fn>Result`).
  [R.MeetingAppInfoSchema, "MeetingAppInfo"],
  [R.ExtensionSchema, "RegistrarExtension"],
  [R.SendEmailResultSchema, "SendEmailResult"],
  [R.SyncJobSchema, "SyncJob"],
]);

/** Fields every resource takes (COMMON_FIELDS); a resource's own comment wins. */
const COMMON_DOCS: Readonly<Record<string, string>> = {
  accountId:
    "The account to act on (default: the provider's `accountId`). Changing it replaces the resource.",
  importId: "An existing object to adopt on create instead of making one (its id).",
};

/** The provider's configuration: types and words here, keys and environment variables in provider/config.ts. */
const CONFIG_WORDS: Readonly<
  Record<string, { type: "string" | "integer" | "boolean"; description: string }>
> = {
  apiToken: {
    type: "string",
    description: "The API token sent as the bearer credential. Never stored in state.",
  },
  accountId: {
    type: "string",
    description: "The account every request is scoped to, unless a resource sets its own.",
  },
  baseUrl: { type: "string", description: "The API's base URL (the emulator's address in tests)." },
  deadlineMs: {
    type: "integer",
    description:
      "Overall budget of one API call in milliseconds, every retry and pause included (at least 1000).",
  },
  maxRetries: {
    type: "integer",
    description: "Further attempts after the first, within the deadline (at least 0).",
  },
  insecureHttp: {
    type: "boolean",
    description:
      "Allow a plain http:// baseUrl naming a host other than this machine (the token then travels in clear): for a test bed only.",
  },
};

/** Package metadata: the contract of docs/sdk-gen.md. */
const METADATA = {
  displayName: "Account API",
  description:
    "Resources of one account-scoped HTTP API: build triggers, search instances, domain registrations, meetings and zone rules, with runs and functions.",
  keywords: ["pulumi", "account-api", "category/utility", "kind/native"],
  license: "Apache-2.0",
  publisher: "pulumi-account-api",
  meta: { moduleFormat: "(.*)", supportPack: true },
  language: {
    csharp: {
      rootNamespace: "Pulumi",
      namespaces: { [PACKAGE_NAME]: "AccountApi" },
      respectSchemaVersion: true,
    },
    go: {
      importBasePath: "github.com/example/pulumi-account-api/sdk-gen/go/accountapi",
      rootPackageName: "accountapi",
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
    python: { packageName: "pulumi_account_api", pyproject: { enabled: true }, respectSchemaVersion: true },
  },
};

export interface ResourceSchema {
  description?: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface FunctionSchema {
  description: string;
  inputs: ObjectTypeSpec;
  outputs: ObjectTypeSpec | TypeSpec;
}

export type PulumiPackageSchema = typeof METADATA & {
  name: string;
  version: string;
  config: { variables: Record<string, PropertySpec> };
  provider: {
    description: string;
    inputProperties: Record<string, PropertySpec>;
    properties: Record<string, PropertySpec>;
  };
  types: Record<string, ComplexTypeSpec>;
  resources: Record<string, ResourceSchema>;
  functions: Record<string, FunctionSchema>;
};

const WRITE_ONLY_NOTE = (name: string) =>
  `The service never returns it: a refresh keeps the value given, and \`${hashName(name)}\` shows a change.`;
const CREATE_ONLY_NOTE = "Used at creation only: a later change does nothing remote and shows no diff.";

function joinWords(...parts: (string | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => p !== undefined && p !== "");
  return kept.length ? kept.join("\n\n") : undefined;
}

/** A record with its keys in order, so the JSON does not depend on the order tables were written in. */
function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function withDescription<T extends object>(
  spec: T,
  description: string | undefined,
): T & { description?: string } {
  return description ? { ...spec, description } : spec;
}

function resourceSchema(
  kind: ProviderKind,
  spec: ResourceSpec,
  docs: FieldDocs,
  types: TypeCollector,
): ResourceSchema {
  const own = docs[kind];
  // A run's inputs are those of the function it stands for: their words describe its fields.
  const runFunction = roomOf(kind).runFunction;
  const runParams = runFunction ? FUNCTIONS.find((f) => f.name === runFunction)?.params.shape : undefined;
  const inputProperties: Record<string, PropertySpec> = {};
  const properties: Record<string, PropertySpec> = {};
  const requiredInputs: string[] = [];
  const required = new Set<string>(spec.filledAtCheck);
  if (spec.idOutput) required.add(spec.idOutput);
  for (const [name, field] of Object.entries(spec.fields)) {
    const d = types.describe(field.type, `${kind}${pascal(name)}`);
    // A type that takes no value is an earlier release's name, kept only to be refused with the new one.
    if (!d.spec) continue;
    const runWords = runParams?.[name]?.description;
    const description = joinWords(
      own?.fields[name] ??
        COMMON_DOCS[name] ??
        d.description ??
        runWords ??
        (field.wire ? `The service's \`${field.wire}\`.` : undefined),
      field.flags.writeOnly ? WRITE_ONLY_NOTE(name) : undefined,
      field.flags.createOnly ? CREATE_ONLY_NOTE : undefined,
    );
    const secret = field.flags.secret === true;
    const replaces = spec.replaceKeys.includes(name);
    const property: PropertySpec = withDescription(
      { ...d.spec, ...(secret ? { secret: true } : {}), ...(replaces ? { replaceOnChanges: true } : {}) },
      description,
    );
    properties[name] = property;
    if (field.role === "output") continue;
    inputProperties[name] = d.default !== undefined ? { ...property, default: d.default } : property;
    if (!d.optional) requiredInputs.push(name);
    if (!d.optional || d.default !== undefined) required.add(name);
  }
  for (const name of spec.writeOnlyInputs) {
    const hash = hashName(name);
    properties[hash] ??= {
      type: "string",
      description: `A hash of \`${name}\` as last sent: it changes when \`${name}\` does, without showing it.`,
    };
  }
  return {
    ...(own?.description ? { description: own.description } : {}),
    inputProperties: sorted(inputProperties),
    ...(requiredInputs.length ? { requiredInputs: requiredInputs.sort() } : {}),
    properties: sorted(properties),
    ...(required.size ? { required: [...required].filter((n) => n in properties).sort() } : {}),
  };
}

function objectOf(shape: Record<string, z.ZodType>, name: string, types: TypeCollector): ObjectTypeSpec {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const [key, t] of Object.entries(shape)) {
    const d = types.describe(t, `${name}${pascal(key)}`);
    if (!d.spec) continue;
    properties[key] = withDescription({ ...d.spec }, d.description);
    if (!d.optional) required.push(key);
  }
  return {
    type: "object",
    properties: sorted(properties),
    ...(required.length ? { required: required.sort() } : {}),
  };
}

/**
 * The key an invoke answers a result that is not an object under (a list): the SDKs generated for a
 * plain return type read the one property of the answer, whatever its name.
 */
export const SINGLE_RESULT_KEY = "result";

/** What an invoke of `f` answers for its result `value`: the object itself, or the value under SINGLE_RESULT_KEY. */
export function invokeOutputs(f: FunctionEntry, value: unknown): Record<string, unknown> {
  if (f.result instanceof z.ZodObject && typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value));
  return { [SINGLE_RESULT_KEY]: value };
}

function functionSchema(f: FunctionEntry, types: TypeCollector): FunctionSchema {
  const base = pascal(f.name);
  // An object result is the function's outputs; any other (a list) is its plain return type.
  const outputs =
    f.result instanceof z.ZodObject
      ? objectOf(f.result.shape, `${base}Result`, types)
      : (types.describe(f.result, `${base}Result`).spec ?? ANY);
  return { description: f.description, inputs: objectOf(f.params.shape, `${base}Args`, types), outputs };
}

function configProperties(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const setting of Object.values(CONFIG_SETTINGS)) {
    const words = CONFIG_WORDS[setting.key];
    if (!words)
      throw new Error(`account-api: the config setting ${setting.key} has no words in the package schema`);
    out[setting.key] = {
      type: words.type,
      description: words.description,
      ...(setting.secret ? { secret: true } : {}),
      defaultInfo: { environment: [setting.env] },
    };
  }
  return sorted(out);
}

/** Names the SDKs derive from each resource and function: a named type must take none of them. */
function derivedNames(): Set<string> {
  const names = new Set<string>();
  for (const kind of NATIVE_KINDS)
    for (const suffix of [
      "",
      "Args",
      "State",
      "Input",
      "Output",
      "Array",
      "Map",
      "ArrayInput",
      "MapInput",
      "ArrayOutput",
      "MapOutput",
    ])
      names.add(`${kind}${suffix}`);
  for (const f of INVOKES)
    for (const suffix of ["", "Args", "Result", "OutputArgs", "ResultOutput", "Output"])
      names.add(`${pascal(f.name)}${suffix}`);
  return names;
}

/** The package schema `getSchema` serves and the SDKs are generated from. */
export function providerSchema(version: string, docs: FieldDocs = loadFieldDocs()): PulumiPackageSchema {
  const types = new TypeCollector(SHARED_TYPE_NAMES);
  const resources: Record<string, ResourceSchema> = {};
  for (const kind of NATIVE_KINDS) resources[tokenOf(kind)] = resourceSchema(kind, specOf(kind), docs, types);
  const functions: Record<string, FunctionSchema> = {};
  for (const f of INVOKES) functions[`${TOKEN_PREFIX}${f.name}`] = functionSchema(f, types);
  const taken = derivedNames();
  for (const token of types.types.keys())
    if (taken.has(token.slice(TOKEN_PREFIX.length)))
      throw new Error(`account-api: the type ${token} takes a name the SDKs give a resource or function`);
  const config = configProperties();
  // The provider's outputs: the settings but the token (it would be stored in state), no fallbacks.
  const visible = Object.fromEntries(
    Object.entries(config)
      .filter(([key]) => !config[key]?.secret)
      .map(([key, { defaultInfo: _fallback, ...rest }]) => [key, rest]),
  );
  return {
    name: PACKAGE_NAME,
    version,
    ...METADATA,
    config: { variables: config },
    provider: {
      description: "The provider of account-api resources: the API's address, account and credentials.",
      inputProperties: config,
      properties: visible,
    },
    types: sorted(Object.fromEntries(types.types)),
    resources: sorted(resources),
    functions: sorted(functions),
  };
}
