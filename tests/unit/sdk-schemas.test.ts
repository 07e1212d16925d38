/** Wire field tables: create bodies fill the API's defaults, update bodies never do, responses stay tolerant. */
import { strict as assert } from "node:assert";
import { z } from "zod";
import {
  EnvVarInputSchema,
  EnvVarSchema,
  RepoConnectionBodySchema,
  RepoConnectionSchema,
  TriggerCreateBodySchema,
  TriggerSchema,
  TriggerUpdateBodySchema,
} from "../../sdk/schemas/builds";
import { noDefaults, optionalAll } from "../../sdk/schemas/common";
import {
  ConfigRuleRequestSchema,
  ConfigRuleSchema,
  PatchZoneSettingRequestSchema,
} from "../../sdk/schemas/content";
import { MeetingCreateSchema, MeetingUpdateSchema } from "../../sdk/schemas/meetings";
import {
  RegistrationCreateSchema,
  RegistrationSchema,
  RegistrationUpdateSchema,
} from "../../sdk/schemas/registrar";
import { CreateInstanceBodySchema, UpdateInstanceBodySchema } from "../../sdk/schemas/search";

const UUID = "11111111-2222-4333-8444-555555555555";
const TAG = "0123456789abcdef0123456789abcdef";

describe("sdk schemas: field-table helpers", () => {
  const fields = { a: z.array(z.string()).default(["*"]), b: z.boolean().default(true), c: z.string() };

  it("noDefaults unwraps each default and leaves other fields alone", () => {
    const plain = noDefaults(fields);
    assert.equal(plain.c, fields.c);
    assert.deepEqual(z.object(plain).partial().parse({}), {});
    // The reason the helper exists: zod keeps inner defaults under partial().
    assert.deepEqual(z.object(fields).partial().parse({}), { a: ["*"], b: true });
  });

  it("optionalAll makes every field optional without filling defaults", () => {
    assert.deepEqual(z.object(optionalAll(fields)).parse({}), {});
    assert.deepEqual(z.object(optionalAll(fields)).parse({ c: "x" }), { c: "x" });
    assert.equal(z.object(optionalAll(fields)).safeParse({ a: "no" }).success, false);
  });
});

describe("sdk schemas: update bodies parsed from {} stay {}", () => {
  const empties: [string, z.ZodType][] = [
    ["TriggerUpdateBodySchema", TriggerUpdateBodySchema],
    ["MeetingUpdateSchema", MeetingUpdateSchema],
    ["UpdateInstanceBodySchema", UpdateInstanceBodySchema],
  ];
  for (const [name, schema] of empties) {
    it(name, () => assert.deepEqual(schema.parse({}), {}));
  }

  it("a trigger PATCH carries only what it names", () => {
    assert.deepEqual(TriggerUpdateBodySchema.parse({ build_command: "npm run build" }), {
      build_command: "npm run build",
    });
    assert.equal(TriggerUpdateBodySchema.safeParse({ external_script_id: TAG }).success, false);
  });

  it("a registration update names auto_renew and nothing else", () => {
    assert.deepEqual(RegistrationUpdateSchema.parse({ auto_renew: true }), { auto_renew: true });
    assert.equal(RegistrationUpdateSchema.safeParse({}).success, false);
  });
});

describe("sdk schemas: create bodies fill the API's defaults", () => {
  /** A trigger's create body with only the fields the sdk has no default for. */
  const minimalTrigger = {
    external_script_id: TAG,
    repo_connection_uuid: UUID,
    trigger_name: "production",
    build_token_uuid: UUID,
    build_command: "",
    deploy_command: "npx wrangler deploy",
    root_directory: "/",
    branch_includes: ["main"],
  };

  it("a trigger: branch_excludes [], path_includes [*], path_excludes [], caching off (the contract's default)", () => {
    const body = TriggerCreateBodySchema.parse(minimalTrigger);
    assert.deepEqual(
      [body.branch_excludes, body.path_includes, body.path_excludes, body.build_caching_enabled],
      [[], ["*"], [], false],
    );
    const set = TriggerCreateBodySchema.parse({
      ...body,
      path_includes: ["src/*"],
      build_caching_enabled: true,
    });
    assert.deepEqual([set.path_includes, set.build_caching_enabled], [["src/*"], true]);
  });

  it("a registration: auto_renew false, privacy redaction; years left to the server", () => {
    const body = RegistrationCreateSchema.parse({ domain_name: "Example.COM" });
    assert.deepEqual(body, { domain_name: "example.com", auto_renew: false, privacy_mode: "redaction" });
  });

  it("keeps the strict rules of the table", () => {
    assert.equal(TriggerCreateBodySchema.safeParse({ ...minimalTrigger, extra: 1 }).success, false);
    assert.equal(RepoConnectionBodySchema.safeParse({ provider_type: "github" }).success, false);
    assert.equal(EnvVarInputSchema.safeParse({ value: "v", is_secret: false, x: 1 }).success, false);
    assert.equal(PatchZoneSettingRequestSchema.safeParse({ value: "auto" }).success, false);
    assert.equal(MeetingCreateSchema.safeParse({ title: 1 }).success, false);
    assert.equal(CreateInstanceBodySchema.safeParse({ id: "kb", chunk_size: 1 }).success, false);
    assert.equal(
      ConfigRuleRequestSchema.safeParse({ expression: "true", action: "set_config", action_parameters: {} })
        .success,
      false,
    );
  });
});

describe("sdk schemas: responses derived from the tables stay tolerant", () => {
  it("a trigger with only its id and unknown fields parses, without defaults filled in", () => {
    const t = TriggerSchema.parse({ trigger_uuid: UUID, new_field: 1 });
    assert.deepEqual(t, { trigger_uuid: UUID, new_field: 1 });
  });

  it("a secret variable comes back with a null value", () => {
    const secret = { value: null, is_secret: true, created_on: "2026-01-01T00:00:00Z" };
    assert.deepEqual(EnvVarSchema.parse(secret), secret);
  });

  it("a repository connection, a registration and a foreign rule parse", () => {
    assert.equal(RepoConnectionSchema.parse({ repo_connection_uuid: UUID }).repo_connection_uuid, UUID);
    const reg = RegistrationSchema.parse({
      domain_name: "example.com",
      auto_renew: false,
      created_at: "2026-01-01T00:00:00Z",
      expires_at: null,
      locked: true,
      privacy_mode: "redaction",
      status: "active",
    });
    assert.equal(reg.privacy_mode, "redaction");
    const rule = ConfigRuleSchema.parse({
      id: "r1",
      version: "1",
      expression: "true",
      action: "rewrite",
      last_updated: "2026-01-01T00:00:00Z",
    });
    assert.equal(rule.action, "rewrite");
  });
});
