/**
 * Bad-input corpus, emulator: raw HTTP requests with invalid bodies, queries, path ids and keys
 * (prototype-named ones among them: `__proto__`, `constructor`, `toString`), malformed JSON, null and
 * array bodies, and bad tokens, to a started emulator. Each gets a 4xx (never a 5xx, never a 2xx) in
 * the area's envelope, with a message that names the field (or the id) and the rule; and
 * Object.prototype is the same afterwards.
 *
 * Figure printed: cases, per area, statuses seen.
 */
import { strict as assert } from "node:assert";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
/** The builds API's one message for an unknown id (docs/areas/builds.md); the path names the id. */
const NOT_FOUND = /"code":12000,"message":"Resource not found"/;
const PROTO_NAMES = ["__proto__", "constructor", "toString"] as const;

interface Case {
  area: "builds" | "content" | "email" | "meetings" | "registrar" | "search" | "control";
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below /client/v4; `{A}` is /accounts/<the emulator's account>; a leading /__ is the control API. */
  path: string;
  body?: unknown;
  /** null sends no Authorization header; a string sends that token. */
  token?: string | null;
  status?: number;
  /** What the message must say: the field (or id) and the rule. */
  says: RegExp;
}

/** A name in double quotes as it reads inside the JSON text of an envelope (`\"name\"`). */
const quoted = (name: string): string => `\\\\"${name}\\\\"`;

/** A JSON text whose object has an own `__proto__` key (an object literal would set the prototype). */
const protoKeyed = (inner: string, rest = ""): string => `{"__proto__": ${inner}${rest ? `, ${rest}` : ""}}`;

const repo = {
  provider_type: "github",
  provider_account_id: "acme",
  provider_account_name: "Acme",
  repo_id: "r",
  repo_name: "r",
};
const send = { from: "ops@example.com", to: "dev@example.org", subject: "s", text: "t" };

const CASES: Case[] = [
  // auth comes first, whatever the body
  {
    area: "builds",
    method: "POST",
    path: "{A}/builds/triggers",
    body: "{not json",
    token: null,
    status: 401,
    says: /auth|token/i,
  },
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: [1, 2],
    token: "bogus",
    status: 401,
    says: /auth|token/i,
  },
  {
    area: "meetings",
    method: "POST",
    path: "{A}/realtime/kit/app/meetings",
    body: null,
    token: null,
    status: 401,
    says: /auth|token/i,
  },
  {
    area: "registrar",
    method: "POST",
    path: "{A}/registrar/registrations",
    body: "x".repeat(10),
    token: "bogus",
    status: 401,
    says: /auth|token/i,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: "{",
    token: null,
    says: /auth|token/i,
  },
  {
    area: "content",
    method: "POST",
    path: "/zones",
    body: "[",
    token: null,
    status: 401,
    says: /auth|token/i,
  },
  // malformed JSON, null and array bodies
  ...(["builds", "search", "meetings", "registrar", "content", "email"] as const).flatMap((area): Case[] => {
    const path = {
      builds: "{A}/builds/triggers",
      search: "{A}/ai-search/instances",
      meetings: "{A}/realtime/kit/app/meetings",
      registrar: "{A}/registrar/registrations",
      content: "/zones",
      email: "{A}/email/sending/send",
    }[area];
    return [
      { area, method: "POST", path, body: "{not json", status: 400, says: /body: malformed JSON/ },
      { area, method: "POST", path, body: "null", status: 400, says: /body: must be a JSON object/ },
      { area, method: "POST", path, body: "[]", status: 400, says: /body: must be a JSON object/ },
    ];
  }),
  // builds
  {
    area: "builds",
    method: "PUT",
    path: "{A}/builds/repos/connections",
    body: { ...repo, repo_id: "" },
    status: 400,
    says: /repo_id.*must not be empty/,
  },
  {
    area: "builds",
    method: "PUT",
    path: "{A}/builds/repos/connections",
    body: { ...repo, extra: 1 },
    status: 400,
    says: /extra/,
  },
  {
    area: "builds",
    method: "PUT",
    path: "{A}/builds/repos/connections",
    body: protoKeyed("1", JSON.stringify(repo).slice(1, -1)),
    status: 400,
    says: /__proto__/,
  },
  {
    area: "builds",
    method: "POST",
    path: "{A}/builds/triggers",
    body: {
      external_script_id: "",
      repo_connection_uuid: UUID,
      build_token_uuid: UUID,
      trigger_name: "t",
      build_command: "",
      deploy_command: "d",
      root_directory: "/",
      branch_includes: ["main"],
    },
    status: 400,
    says: /external_script_id: must not be empty/,
  },
  {
    area: "builds",
    method: "POST",
    path: `{A}/builds/triggers/${UUID}/builds`,
    body: {},
    status: 400,
    says: /branch.*commit_hash|commit_hash.*branch/,
  },
  {
    area: "builds",
    method: "PATCH",
    path: `{A}/builds/triggers/${UUID}/environment_variables`,
    body: { "": { value: "x", is_secret: false } },
    says: /must not be empty|not found|trigger/i,
  },
  {
    area: "builds",
    method: "PATCH",
    path: `{A}/builds/triggers/${UUID}/environment_variables`,
    body: { K: { value: 1, is_secret: false } },
    status: 400,
    says: /K.*value|value.*string/i,
  },
  ...PROTO_NAMES.map((n): Case => ({
    area: "builds",
    method: "GET",
    path: `{A}/builds/triggers/${n}/environment_variables`,
    status: 404,
    says: NOT_FOUND,
  })),
  ...PROTO_NAMES.map((n): Case => ({
    area: "builds",
    method: "GET",
    path: `{A}/builds/builds/${n}`,
    status: 404,
    says: NOT_FOUND,
  })),
  {
    area: "builds",
    method: "GET",
    path: "{A}/builds/builds?version_ids=",
    status: 400,
    says: /version_ids: at least one/,
  },
  // content
  {
    area: "content",
    method: "POST",
    path: "/zones",
    body: { name: "not a domain", account: { id: "{account}" } },
    status: 400,
    says: /name/,
  },
  { area: "content", method: "POST", path: "/zones", body: { name: "ok.com" }, status: 400, says: /account/ },
  ...PROTO_NAMES.map((n): Case => ({
    area: "content",
    method: "PATCH",
    path: `/zones/${n}/settings/content_converter`,
    body: { value: "on" },
    status: 404,
    says: new RegExp(`zone ${n} not found`),
  })),
  ...PROTO_NAMES.map((n): Case => ({
    area: "content",
    method: "GET",
    path: `/zones/${n}/custom_hostnames`,
    status: 404,
    says: new RegExp(`zone ${n} not found`),
  })),
  { area: "content", method: "GET", path: `/zones/${"z".repeat(33)}`, says: /zone|32/i },
  // email
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: { ...send, from: "nobody" },
    says: /from: must be an email address/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: { ...send, to: [] },
    says: /"to: must list at least one address"/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: { ...send, text: undefined },
    says: /html or text/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: { ...send, headers: { Bcc: "x@example.com" } },
    says: /headers\.Bcc: must be set through the bcc field/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: { ...send, headers: { constructor: "x" } },
    says: /headers\.constructor: is not on the allowed-header list/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: `{"from":"ops@example.com","to":"dev@example.org","subject":"s","text":"t","headers":${protoKeyed('"x"')}}`,
    says: /__proto__/,
  },
  {
    area: "email",
    method: "POST",
    path: "{A}/email/sending/send",
    body: {
      ...send,
      attachments: [{ content: "!!", filename: "a", type: "text/plain", disposition: "attachment" }],
    },
    says: /attachments\.0\.content: must be base64/,
  },
  // meetings
  {
    area: "meetings",
    method: "POST",
    path: "{A}/realtime/kit/app/meetings",
    body: { session_keep_alive_time_in_secs: 5 },
    status: 400,
    says: /session_keep_alive_time_in_secs: must be between 60 and 600/,
  },
  {
    area: "meetings",
    method: "POST",
    path: "{A}/realtime/kit/app/meetings",
    body: { recording_config: { storage_config: { type: "aws" } } },
    status: 400,
    says: /storage_config\.access_key: is required for type aws/,
  },
  {
    area: "meetings",
    method: "POST",
    path: "{A}/realtime/kit/app/meetings",
    body: { summarize_on_end: true },
    status: 400,
    says: /summarize_on_end: requires transcription/,
  },
  {
    area: "meetings",
    method: "POST",
    path: "{A}/realtime/kit/app/meetings",
    body: protoKeyed('{"x": 1}', '"title": "t"'),
    status: 400,
    says: /__proto__/,
  },
  {
    area: "meetings",
    method: "POST",
    path: `{A}/realtime/kit/${"a".repeat(33)}/meetings`,
    body: { title: "t" },
    status: 400,
    says: /app_id: must be at most 32 characters/,
  },
  ...PROTO_NAMES.map((n): Case => ({
    area: "meetings",
    method: "PATCH",
    path: `{A}/realtime/kit/app/meetings/${n}`,
    body: { title: "x" },
    status: 404,
    says: new RegExp(`meeting ${n} in app app not found`),
  })),
  // registrar
  {
    area: "registrar",
    method: "POST",
    path: "{A}/registrar/domain-check",
    body: { domains: [] },
    status: 400,
    says: /"domains: must/,
  },
  {
    area: "registrar",
    method: "POST",
    path: "{A}/registrar/domain-check",
    body: { domains: "a.com" },
    status: 400,
    says: /"domains: must/,
  },
  {
    area: "registrar",
    method: "POST",
    path: "{A}/registrar/registrations",
    body: { domain_name: "example.com", years: 11 },
    status: 400,
    says: /years: must be between 1 and 10/,
  },
  {
    area: "registrar",
    method: "POST",
    path: "{A}/registrar/registrations",
    body: { domain_name: "example.com", privacy_mode: "hidden" },
    status: 400,
    says: /privacy_mode: must be one of/,
  },
  {
    area: "registrar",
    method: "GET",
    path: "{A}/registrar/domain-search?q=",
    status: 400,
    says: /"q: must not be empty"/,
  },
  ...PROTO_NAMES.map((n): Case => ({
    area: "registrar",
    method: "GET",
    path: `{A}/registrar/registrations/${n}`,
    says: new RegExp(`registration for ${n.toLowerCase()} not found`),
  })),
  ...PROTO_NAMES.map((n): Case => ({
    area: "registrar",
    method: "PATCH",
    path: `{A}/registrar/registrations/${n}`,
    body: { auto_renew: true },
    says: new RegExp(`registration for ${n.toLowerCase()} not found`),
  })),
  {
    area: "registrar",
    method: "GET",
    path: `/accounts/${"a".repeat(33)}/registrar/registrations`,
    status: 400,
    says: /account_id: must be at most 32 characters/,
  },
  // search
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: { id: "KB!" },
    status: 400,
    says: /"id: must contain only lowercase letters/,
  },
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: { id: "kb", type: "s3", source: "b" },
    status: 400,
    says: /"type: must be one of r2, web-crawler"/,
  },
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: { id: "kb", type: "r2", source: "Bad_Bucket" },
    status: 400,
    says: /source.*R2 bucket/,
  },
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: { id: "kb", chunk_size: 1 },
    status: 400,
    says: /chunk_size: must be at least 64/,
  },
  {
    area: "search",
    method: "POST",
    path: "{A}/ai-search/instances",
    body: { id: "kb", custom_metadata: [{ field_name: "x".repeat(65), data_type: "text" }] },
    status: 400,
    says: /field_name: must be at most 64 characters/,
  },
  ...PROTO_NAMES.map((n): Case => ({
    area: "search",
    method: "PUT",
    path: `{A}/ai-search/instances/${n}`,
    body: { chunk_size: 512 },
    status: 404,
    says: new RegExp(`instance ${quoted(n)} in namespace ${quoted("default")} not found`),
  })),
  ...PROTO_NAMES.map((n): Case => ({
    area: "search",
    method: "GET",
    // The listing documents no 404 (the contract): an instance route answers an unknown namespace.
    path: `{A}/ai-search/namespaces/${n}/instances/kb`,
    says: new RegExp(`namespace ${quoted(n)} not found`),
  })),
  {
    area: "search",
    method: "GET",
    path: "{A}/ai-search/instances?per_page=1000",
    status: 400,
    says: /per_page: must be between 1 and 100/,
  },
  // A generated query number: empty is no number (zod's coercion would have read it as 0).
  ...["", " ", "1e", "0x10", "ten"].map((v): Case => ({
    area: "registrar",
    method: "GET",
    path: `{A}/registrar/domain-search?q=shop&limit=${encodeURIComponent(v)}`,
    status: 400,
    says: /limit: must be a number/,
  })),
  // control API
  {
    area: "control",
    method: "POST",
    path: "/__emulator/faults",
    body: { path: "(" },
    status: 400,
    says: /path.*regular expression/,
  },
  {
    area: "control",
    method: "POST",
    path: "/__emulator/faults",
    body: { path: "x", status: 418 },
    status: 400,
    says: /"status: /,
  },
  {
    area: "control",
    method: "POST",
    path: "/__emulator/faults",
    body: protoKeyed("{}", '"path": "x"'),
    status: 400,
    says: /__proto__/,
  },
  {
    area: "control",
    method: "POST",
    path: "/__emulator/clock/advance",
    body: { ms: -5 },
    status: 400,
    says: /"ms: Too small/,
  },
];

type Res = Awaited<ReturnType<EmulatorFixture["http"]>>;

/** The messages of the area's envelope (errors[].message, or messages of a meetings-style error). */
function messages(res: Res): string {
  const json = res.json;
  if (typeof json !== "object" || json === null) return res.text;
  return JSON.stringify(json);
}

describe("bad-input corpus: emulator (raw requests)", () => {
  const fx = useEmulator();
  const statuses = new Map<number, number>();
  let prototypeKeys: string[];

  beforeEach(() => {
    prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  });
  afterEach(() => {
    assert.deepEqual(
      Object.getOwnPropertyNames(Object.prototype).sort(),
      prototypeKeys,
      "Object.prototype changed",
    );
  });
  after(() => {
    const per = [...new Set(CASES.map((c) => c.area))].map(
      (a) => `${a} ${CASES.filter((c) => c.area === a).length}`,
    );
    const seen = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.log(
      `      [figure] bad input, emulator: ${CASES.length} requests (${per.join(", ")}); statuses ${seen.join(", ")}`,
    );
  });

  CASES.forEach((c, i) => {
    const shown = typeof c.body === "string" ? c.body.slice(0, 40) : JSON.stringify(c.body)?.slice(0, 60);
    it(`#${i + 1} ${c.area}: ${c.method} ${c.path} ${shown ?? ""}`, async () => {
      const path = c.path.replace("{A}", `/accounts/${fx.em.accountId}`);
      const body = JSON.parse(
        JSON.stringify(c.body ?? null).replace('"{account}"', JSON.stringify(fx.em.accountId)),
      ) as unknown;
      const res = await fx.http(c.method, path, {
        ...(c.body !== undefined ? { body: typeof c.body === "string" ? c.body : body } : {}),
        ...(c.token !== undefined ? { token: c.token } : {}),
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const said = messages(res);
      assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}: ${said}`);
      if (c.status !== undefined) assert.equal(res.status, c.status, said);
      assert.match(said, c.says);
    });
  });
});
