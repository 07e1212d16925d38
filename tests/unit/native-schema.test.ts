/**
 * The native provider's package schema (provider/native/schema.ts): valid against Pulumi's package
 * metaschema (pkg/codegen/schema/pulumi.json of v3.259.0, kept in tests/fixtures), made from every
 * field of every description with its flags (table-driven over the descriptions, so a new field
 * cannot be missed), the config and the invokes, the same bytes on every call.
 */
import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { CONFIG_SETTINGS } from "../../provider/config";
import { hashName } from "../../provider/core/define";
import { FUNCTIONS, INVOKES } from "../../provider/functions/table";
import { extractFieldDocs } from "../../provider/native/field-docs";
import {
  NATIVE_KINDS,
  PACKAGE_NAME,
  SINGLE_RESULT_KEY,
  invokeOutputs,
  kindOfToken,
  providerSchema,
  specOf,
  tokenOf,
} from "../../provider/native/schema";
import { TypeCollector } from "../../provider/native/pulumi-types";

const ROOT = resolve(__dirname, "..", "..");
const METASCHEMA = join(ROOT, "tests", "fixtures", "pulumi-package-metaschema-3.259.0.json");
const DOCS = extractFieldDocs(join(ROOT, "provider"));
const schema = providerSchema("0.1.0", DOCS);
const resource = (kind: string) => {
  const r = schema.resources[`account-api:index:${kind}`];
  assert.ok(r, kind);
  return r;
};

describe("native provider schema", () => {
  it("validates against Pulumi's package metaschema (v3.259.0)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(METASCHEMA, "utf8")) as object);
    const valid = validate(schema);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 10), null, 2));
  });

  it("is the same JSON on every call, keys sorted where their order is free", () => {
    assert.equal(JSON.stringify(providerSchema("0.1.0", DOCS)), JSON.stringify(schema));
    for (const record of [schema.resources, schema.functions, schema.types, schema.config.variables]) {
      const keys = Object.keys(record);
      assert.deepEqual(keys, [...keys].sort());
    }
    for (const r of Object.values(schema.resources)) {
      assert.deepEqual(Object.keys(r.inputProperties), Object.keys(r.inputProperties).sort());
      assert.deepEqual(Object.keys(r.properties), Object.keys(r.properties).sort());
    }
  });

  it("has the package metadata of docs/sdk-gen.md, and neither a logo nor a download URL", () => {
    assert.equal(schema.name, PACKAGE_NAME);
    assert.equal(schema.name, "account-api");
    assert.deepEqual(schema.meta, { moduleFormat: "(.*)", supportPack: true });
    assert.equal(schema.language.python.packageName, "pulumi_account_api");
    assert.equal(
      schema.language.go.importBasePath,
      "github.com/example/pulumi-account-api/sdk-gen/go/accountapi",
    );
    assert.deepEqual(schema.language.csharp.namespaces, { "account-api": "AccountApi" });
    assert.ok(!("logoUrl" in schema) && !("pluginDownloadURL" in schema));
  });

  it("lists the twelve resources and the three runs, and maps tokens to kinds both ways", () => {
    assert.deepEqual(Object.keys(schema.resources).sort(), NATIVE_KINDS.map(tokenOf).sort());
    assert.equal(NATIVE_KINDS.length, 15);
    for (const kind of NATIVE_KINDS) assert.equal(kindOfToken(tokenOf(kind)), kind);
    for (const token of [
      "account-api:index:constructor",
      "account-api:index:__proto__",
      "other:index:BuildRun",
      "BuildRun",
      "",
    ])
      assert.equal(kindOfToken(token), undefined, token);
  });

  // Table-driven over the descriptions: every field of every kind, with each flag it has.
  for (const kind of NATIVE_KINDS)
    it(`${kind}: every field of its description is there, with its flags`, () => {
      const spec = specOf(kind);
      const r = resource(kind);
      const probe = new TypeCollector();
      for (const [name, field] of Object.entries(spec.fields)) {
        const takesValue = probe.describe(field.type, "Probe").spec !== undefined;
        if (!takesValue) {
          // An earlier release's name, kept only to refuse it: not offered.
          assert.ok(
            !(name in r.properties) && !(name in r.inputProperties),
            `${kind}.${name} should be absent`,
          );
          continue;
        }
        const out = r.properties[name];
        assert.ok(out, `${kind}.${name} is not among the properties`);
        const secret =
          field.role === "input" ? spec.secretInputs.includes(name) : spec.secretOutputs.includes(name);
        assert.equal(out.secret === true, secret, `${kind}.${name}: secret`);
        assert.equal(
          out.replaceOnChanges === true,
          spec.replaceKeys.includes(name),
          `${kind}.${name}: replaceOnChanges`,
        );
        if (field.role === "output") {
          assert.ok(!(name in r.inputProperties), `${kind}.${name} is an output, not an input`);
          continue;
        }
        const input = r.inputProperties[name];
        assert.ok(input, `${kind}.${name} is not among the inputs`);
        assert.equal(input.secret === true, secret, `${kind}.${name}: secret input`);
        assert.equal(
          input.replaceOnChanges === true,
          spec.replaceKeys.includes(name),
          `${kind}.${name}: replace input`,
        );
        // Zod's own word on whether the input may be left out (a run's opaque input is checked by its hooks).
        const required = field.type._zod.optin === undefined;
        assert.equal(r.requiredInputs?.includes(name) ?? false, required, `${kind}.${name}: required input`);
        if (field.flags.writeOnly) {
          assert.equal(r.properties[hashName(name)]?.type, "string", `${kind}.${hashName(name)}`);
          assert.match(out.description ?? "", /never returns it/);
        }
      }
      for (const name of Object.keys(r.properties))
        assert.ok(
          name in spec.fields || spec.hashOutputs.includes(name),
          `${kind}.${name} is in no description`,
        );
      assert.ok((r.description ?? "").startsWith(`${kind}: `), `${kind}: its spec's opening comment`);
    });

  it("marks the named secrets, replacements and defaults", () => {
    const search = resource("SearchInstance");
    assert.equal(search.inputProperties.storageCredentials?.secret, true);
    assert.equal(search.properties.storageCredentials?.secret, true);
    assert.equal(search.properties.storageCredentialsHash?.secret, undefined);
    for (const name of ["instanceId", "namespace", "accountId", "type", "source", "hybridSearchEnabled"])
      assert.equal(search.properties[name]?.replaceOnChanges, true, name);
    assert.equal(search.properties.chunkSize?.replaceOnChanges, undefined);
    assert.equal(search.inputProperties.hybridSearchEnabled?.default, false);
    const namespace = resource("SearchNamespace");
    assert.equal(namespace.properties.name?.replaceOnChanges, true);
    assert.equal(namespace.properties.description?.replaceOnChanges, undefined);
    assert.deepEqual(namespace.requiredInputs, ["name"]);
    assert.equal(resource("MeetingTemplate").properties.storageCredentials?.secret, true);
    assert.equal(resource("MeetingTemplate").inputProperties.storageCredentials, undefined);
    assert.equal(resource("BuildTrigger").properties.repoConnectionUuid?.replaceOnChanges, true);
    assert.ok(resource("BuildTrigger").required?.includes("triggerUuid"), "the id output is always there");
    assert.equal(resource("EmailSend").properties.triggers?.replaceOnChanges, true);
    assert.deepEqual(resource("EmailSend").requiredInputs, ["from", "subject", "to"]);
    // Renamed inputs: refused with their new name, never offered.
    assert.equal(resource("ConfigRule").inputProperties.contentConverter, undefined);
    const privacy = resource("DomainRegistration").inputProperties.privacyMode;
    assert.equal(privacy?.default, "redaction");
    const ref = privacy?.$ref?.replace("#/types/", "") ?? "";
    assert.equal(schema.types[ref]?.type, "string");
  });

  it("describes an input made from the contract with the words on its plan (none for a field kept out)", () => {
    assert.match(DOCS.DomainRegistration?.fields.domainName ?? "", /^Fully qualified, normalized/);
    assert.match(DOCS.SearchInstance?.fields.instanceId ?? "", /^The instance's `id`/);
    assert.equal(
      DOCS.SearchInstance?.fields.sourceParams,
      "The credentials are not among them: they are `storageCredentials`, the one secret input.",
    );
    assert.equal(DOCS.ConfigRule?.fields.id, undefined);
  });

  it("has the provider's configuration, the token secret and never an output", () => {
    const keys = Object.values(CONFIG_SETTINGS)
      .map((s) => s.key)
      .sort();
    assert.deepEqual(Object.keys(schema.config.variables), keys);
    assert.deepEqual(Object.keys(schema.provider.inputProperties), keys);
    for (const s of Object.values(CONFIG_SETTINGS)) {
      assert.deepEqual(schema.config.variables[s.key]?.defaultInfo, { environment: [s.env] });
      assert.equal(schema.provider.inputProperties[s.key]?.secret === true, s.secret === true, s.key);
    }
    assert.equal(schema.config.variables.apiToken?.secret, true);
    assert.equal(schema.provider.properties.apiToken, undefined);
    assert.equal(schema.config.variables.deadlineMs?.type, "integer");
  });

  it("offers exactly the invokes, with their parameters and results", () => {
    assert.deepEqual(
      Object.keys(schema.functions).sort(),
      INVOKES.map((f) => `account-api:index:${f.name}`).sort(),
    );
    for (const f of FUNCTIONS.filter((e) => e.sideEffect))
      assert.equal(schema.functions[`account-api:index:${f.name}`], undefined, f.name);
    const check = schema.functions["account-api:index:checkDomain"];
    assert.deepEqual(check?.inputs.required, ["domainName"]);
    assert.ok(check && "properties" in check.outputs && check.outputs.properties?.registrable);
    const tokens = schema.functions["account-api:index:buildTokens"]?.outputs;
    assert.equal(tokens && "type" in tokens ? tokens.type : undefined, "array");
    const apps = schema.functions["account-api:index:listApps"]?.outputs;
    assert.deepEqual(apps, { type: "array", items: { $ref: "#/types/account-api:index:MeetingAppInfo" } });
  });

  it("answers an object result as it is and a list under the single key the SDKs read", () => {
    const check = INVOKES.find((f) => f.name === "checkDomain");
    const tokens = INVOKES.find((f) => f.name === "buildTokens");
    assert.ok(check && tokens);
    assert.deepEqual(invokeOutputs(check, { name: "a.com", registrable: true }), {
      name: "a.com",
      registrable: true,
    });
    const list = [{ buildTokenUuid: "u", buildTokenName: null }];
    assert.deepEqual(invokeOutputs(tokens, list), { [SINGLE_RESULT_KEY]: list });
  });

  it("the built provider (dist/, no compiler) serves what the build wrote to dist/schema.json, words included", () => {
    const built = join(ROOT, "dist", "provider", "native", "schema.js");
    assert.ok(existsSync(built), "dist/ is not built: run `npm run build` first, as for tests/e2e");
    // The compiled module reads the words from field-docs.json beside it (an installed package has no TypeScript).
    const compiled: typeof import("../../provider/native/schema") = require(built);
    const written = readFileSync(join(ROOT, "dist", "schema.json"), "utf8");
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    assert.equal(`${JSON.stringify(compiled.providerSchema(version), null, 2)}\n`, written);
    assert.equal(
      JSON.stringify(JSON.parse(written)),
      JSON.stringify(providerSchema(version, DOCS)),
      "dist/ is older than the sources: npm run build",
    );
  });
});
