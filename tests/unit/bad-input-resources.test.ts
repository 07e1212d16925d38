/**
 * Bad-input corpus, resources: invalid program inputs for every kind, through the kind's registered
 * handler's `check` with a context whose API throws if touched (no request may be sent). Each must
 * come back as a check failure whose reason names the program's field path and the rule broken.
 *
 * Figure printed: cases, per kind, all rejected before any request.
 */
import { strict as assert } from "node:assert";
import { handlerFor } from "../../provider/registry";
import { RESOURCE_KINDS, type ResourceKind } from "../../provider/types";
import { offlineContext } from "../helpers/provider-context";

const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
const TAG = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";

/** A valid input of each kind: every case changes one field of it. */
const BASE: Record<ResourceKind, Record<string, unknown>> = {
  RepoConnection: {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "shop",
    repoName: "shop",
  },
  BuildTrigger: {
    externalScriptId: TAG,
    repoConnectionUuid: UUID,
    buildTokenUuid: UUID,
    kind: "production",
    branchIncludes: ["main"],
  },
  TriggerEnvVars: { triggerUuid: UUID, variables: { MODE: { value: "fast" } } },
  ZoneContentConverter: { zoneId: ZONE },
  ConfigRule: { zoneId: ZONE, host: "docs.example.com" },
  MeetingTemplate: { appId: "app", title: "Standup" },
  DomainRegistration: { domainName: "example.com" },
  SearchInstance: { instanceId: "kb", type: "r2", source: "kb-bucket" },
  MeetingApp: { name: "support" },
  SearchNamespace: { name: "team-a", description: "Team A" },
  SearchToken: { name: "docs-reader", cfApiId: "key-id", cfApiKey: "s3cret" },
  SendingDomain: { zoneId: ZONE, name: "mail.example.com" },
};

/** [field path named, the rule (a pattern of its words), the inputs changed from BASE]. */
type Case = [field: string, rule: RegExp, change: Record<string, unknown>];

const PROTO_KEYS = ["__proto__", "constructor", "toString"];

const CASES: Record<ResourceKind, Case[]> = {
  RepoConnection: [
    ["providerType", /must be one of github/, { providerType: "" }],
    ["providerType", /string|required/i, { providerType: 42 }],
    ["providerAccountId", /must not be empty/, { providerAccountId: "" }],
    ["providerAccountName", /string|required/i, { providerAccountName: undefined }],
    ["repoId", /must not be empty/, { repoId: "" }],
    ["repoName", /string|required/i, { repoName: ["shop"] }],
    ["owner", /not a known field/, { owner: "me" }],
    ...PROTO_KEYS.filter((k) => k !== "__proto__").map((k): Case => [k, /not a known field/, { [k]: "x" }]),
  ],
  BuildTrigger: [
    ["externalScriptId", /tag/, { externalScriptId: "shop" }],
    ["repoConnectionUuid", /UUID/, { repoConnectionUuid: "not-a-uuid" }],
    ["repoConnectionUuid", /UUID|string|required/i, { repoConnectionUuid: undefined }],
    ["buildTokenUuid", /UUID/, { buildTokenUuid: "1234" }],
    ["kind", /"production" or "preview"/, { kind: "staging" }],
    ["triggerName", /must not be empty/, { triggerName: "" }],
    ["deployCommand", /must not be empty/, { deployCommand: "" }],
    ["buildCommand", /string/i, { buildCommand: 7 }],
    ["branchIncludes", /must not be empty/, { branchIncludes: [] }],
    ["branchExcludes", /array|list/i, { branchExcludes: "main" }],
    ["pathIncludes", /array|list/i, { pathIncludes: { "*": true } }],
    ["buildCachingEnabled", /boolean/i, { buildCachingEnabled: "yes" }],
    ["scriptName", /must not be empty/, { scriptName: "", externalScriptId: undefined }],
    ["importId", /UUID/, { importId: "__proto__" }],
    ["rootDir", /not a known field/, { rootDir: "/" }],
  ],
  TriggerEnvVars: [
    ["triggerUuid", /UUID/, { triggerUuid: "constructor" }],
    ["triggerUuid", /UUID|string|required/i, { triggerUuid: undefined }],
    ["variables.MODE.value", /string/i, { variables: { MODE: { value: 1 } } }],
    ["variables.MODE.isSecret", /boolean/i, { variables: { MODE: { value: "x", isSecret: "true" } } }],
    ["variables.MODE.secret", /not a known field/, { variables: { MODE: { value: "x", secret: true } } }],
    ["variables.", /must not be empty/, { variables: { "": { value: "x" } } }],
    ["variables", /object|record|map/i, { variables: ["MODE"] }],
    ["variables.MODE", /object/i, { variables: { MODE: "fast" } }],
    ["importId", /UUID/, { importId: "toString" }],
  ],
  ZoneContentConverter: [
    ["zoneId", /required/, { zoneId: undefined }],
    ["zoneId", /must be a string/, { zoneId: 5 }],
    ["zoneId", /must not be empty/, { zoneId: "" }],
    ["zoneId", /at most 32/, { zoneId: "z".repeat(33) }],
    ["value", /on|off/, { value: "maybe" }],
    ["value", /on|off/, { value: true }],
    ["enabled", /not a known field/, { enabled: true }],
  ],
  ConfigRule: [
    ["zoneId", /at most 32/, { zoneId: "z".repeat(40) }],
    ["zoneId", /required|string/i, { zoneId: undefined }],
    ["host", /hostname/, { host: "localhost" }],
    ["host", /hostname/, { host: "exa mple.com" }],
    ["host", /hostname/, { host: "-bad-.example.com" }],
    ["pathPrefix", /must start with "\/"/, { pathPrefix: "docs" }],
    ["pathPrefix", /must start with "\/"/, { pathPrefix: 3 }],
    ["customHostnameMetadata", /boolean/, { customHostnameMetadata: "yes" }],
    ["contentConverter", /renamed to actionParameters\.contentConverter/, { contentConverter: "on" }],
    ["actionParameters.contentConverter", /boolean/, { actionParameters: { contentConverter: "on" } }],
    ["actionParameters.polish", /one of off, lossless/, { actionParameters: { polish: "max" } }],
    ["logging.enabled", /boolean/, { logging: { enabled: "yes" } }],
    ["ratelimit.period", /number/, { ratelimit: { characteristics: ["ip.src"], period: "1m" } }],
    ["enabled", /boolean/i, { enabled: 1 }],
    [
      "customHostnameIds",
      /must not repeat an id/,
      { customHostnameMetadata: true, customHostnameIds: ["a", "a"] },
    ],
    ["customHostnameIds", /list of custom hostname ids/, { customHostnameIds: "a" }],
    ["description", /string/i, { description: { text: "x" } }],
  ],
  MeetingTemplate: [
    ["appId", /at most 32/, { appId: "a".repeat(33) }],
    ["appId", /must not be empty/, { appId: "" }],
    ["title", /string/i, { title: 5 }],
    ["sessionKeepAliveTimeInSecs", /60|600/, { sessionKeepAliveTimeInSecs: 5 }],
    ["sessionKeepAliveTimeInSecs", /60|600/, { sessionKeepAliveTimeInSecs: 6000 }],
    ["persistChat", /boolean/i, { persistChat: "true" }],
    ["summarizeOnEnd", /transcribeOnEnd/, { summarizeOnEnd: true }],
    [
      "recordingConfig.storageConfig.type",
      /aws|azure|sftp/,
      { recordingConfig: { storageConfig: { type: "s3" } } },
    ],
    [
      "recordingConfig.storageConfig.accessKey",
      /required for type aws/,
      { recordingConfig: { storageConfig: { type: "aws" } } },
    ],
    [
      "recordingConfig.storageConfig.host",
      /required for type sftp/,
      {
        recordingConfig: {
          storageConfig: { type: "sftp", username: "u", authMethod: "KEY", privateKey: "k" },
        },
      },
    ],
    [
      "recordingConfig.storageConfig.password",
      /required when auth_?method is PASSWORD/i,
      {
        recordingConfig: {
          storageConfig: { type: "sftp", host: "h", username: "u", authMethod: "PASSWORD" },
        },
      },
    ],
    [
      "recordingConfig.storageConfig.port",
      /between 1 and 65535/,
      { recordingConfig: { storageConfig: { type: "gcs", port: 70000 } } },
    ],
    ["recordingConfig.maxSeconds", /\d/, { recordingConfig: { maxSeconds: 1 } }],
    [
      "recordingConfig.videoConfig.codec",
      /VP8|H264/i,
      { recordingConfig: { videoConfig: { codec: "MPEG2" } } },
    ],
    ["recordingConfig.bogus", /not a known field/, { recordingConfig: { bogus: 1 } }],
    ["aiConfig.summarization.wordLimit", /\d/, { aiConfig: { summarization: { wordLimit: -1 } } }],
    ["meetingStatus", /not a known field/, { meetingStatus: "ACTIVE" }],
  ],
  DomainRegistration: [
    ["domainName", /domain|name/i, { domainName: "nodot" }],
    ["domainName", /domain|name|empty/i, { domainName: "" }],
    ["domainName", /string|required/i, { domainName: undefined }],
    ["years", /1|10/, { years: 0 }],
    ["years", /1|10/, { years: 11 }],
    ["years", /whole|integer/i, { years: 1.5 }],
    ["autoRenew", /true or false|boolean/i, { autoRenew: "yes" }],
    ["privacyMode", /redaction|off/, { privacyMode: "hidden" }],
    ["maxCost.currency", /ISO 4217/, { maxCost: { amount: "10.00", currency: "usd" } }],
    ["maxCost.amount", /decimal/i, { maxCost: { amount: "ten", currency: "USD" } }],
    ["maxCost.amount", /decimal|string/i, { maxCost: { amount: 10, currency: "USD" } }],
    [
      "contacts.registrant.email",
      /email address/,
      { contacts: { registrant: { ...contact(), email: "ada" } } },
    ],
    ["contacts.owner", /not a known field/, { contacts: { owner: contact() } }],
    ["contacts.admin", /renamed to contacts\.administrator/, { contacts: { admin: contact() } }],
    [
      "contacts.administrator.__proto__",
      /not a known field/,
      { contacts: { administrator: protoKeyed(contact()) } },
    ],
    ["locked", /true or false/, { locked: "yes" }],
    ["importId", /must not be empty/, { importId: "" }],
  ],
  SearchInstance: [
    ["instanceId", /lowercase|letters|digits/i, { instanceId: "KB!" }],
    ["instanceId", /lowercase|letters|digits|empty/i, { instanceId: "" }],
    ["instanceId", /lowercase|letters|digits|characters/i, { instanceId: "Constructor" }],
    ["type", /r2|web-crawler/, { type: "s3" }],
    ["source", /R2 bucket name/, { source: "Bad_Bucket" }],
    ["chunkSize", /\d/, { chunkSize: 1 }],
    ["chunkSize", /integer|whole|number/i, { chunkSize: "big" }],
    ["chunkOverlap", /\d/, { chunkOverlap: -1 }],
    ["cacheThreshold", /close_enough|strict/, { cacheThreshold: "loose" }],
    ["syncInterval", /\d|interval/i, { syncInterval: 7 }],
    ["storageCredentials.secretAccessKey", /string|required/i, { storageCredentials: { accessKeyId: "A" } }],
    [
      "storageCredentials.token",
      /not a known field/,
      { storageCredentials: { accessKeyId: "A", secretAccessKey: "S", token: "T" } },
    ],
    ["indexMethod.keyword", /boolean/i, { indexMethod: { keyword: "yes", vector: true } }],
    ["sourceParams.prefix", /string/i, { sourceParams: { prefix: 5 } }],
    [
      "sourceParams.storageCredentials",
      /not a known field/,
      { sourceParams: { storageCredentials: { accessKeyId: "A" } } },
    ],
    ["namespace", /namespace|lowercase|letters|characters/i, { namespace: "Team A" }],
    ["paused", /boolean/i, { paused: "no" }],
  ],
  MeetingApp: [
    ["name", /string|required/i, { name: undefined }],
    ["name", /string/i, { name: 7 }],
    ["name", /string/i, { name: { text: "support" } }],
    ["title", /not a known field/, { title: "Standup" }],
    ["importId", /must not be empty/, { importId: "" }],
  ],
  SearchNamespace: [
    ["name", /lowercase|letters|digits/i, { name: "Team A" }],
    ["name", /characters|at least|empty/i, { name: "" }],
    ["name", /characters|at most/i, { name: "n".repeat(33) }],
    ["name", /default/, { name: "default" }],
    ["description", /256|characters/i, { description: "d".repeat(257) }],
    ["description", /string/i, { description: 5 }],
    ["importId", /must equal name/, { importId: "other" }],
  ],
  SearchToken: [
    ["name", /string|required/i, { name: undefined }],
    ["name", /string/i, { name: 7 }],
    ["cfApiId", /string|required/i, { cfApiId: undefined }],
    ["cfApiKey", /string|required/i, { cfApiKey: undefined }],
    ["cfApiKey", /string/i, { cfApiKey: ["s3cret"] }],
    ["legacy", /boolean/i, { legacy: "yes" }],
    ["tokenName", /not a known field|unrecognized/i, { tokenName: "x" }],
  ],
  SendingDomain: [
    ["zoneId", /required/, { zoneId: undefined }],
    ["zoneId", /at most 32/, { zoneId: "z".repeat(33) }],
    ["name", /string|required/i, { name: undefined }],
    ["name", /domain name/, { name: "not a domain" }],
    ["name", /domain name/, { name: "-mail.example.com" }],
    ["previewEnabled", /boolean/i, { previewEnabled: "yes" }],
    ["dropSuppressedRecipients", /boolean/i, { dropSuppressedRecipients: 1 }],
    ["owner", /not a known field/, { owner: "me" }],
  ],
};

function contact(): Record<string, unknown> {
  return {
    email: "ada@example.com",
    phone: "+44.2071234567",
    postalInfo: {
      name: "Ada Lovelace",
      organization: "Acme",
      address: { street: "1 Main St", city: "London", state: "LDN", postalCode: "N1 9GU", countryCode: "GB" },
    },
  };
}

/** An object whose own enumerable key is `__proto__` (as JSON.parse makes it), not a prototype change. */
function protoKeyed(o: Record<string, unknown>): Record<string, unknown> {
  return { ...o, ...(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>) };
}

const withChange = (
  base: Record<string, unknown>,
  change: Record<string, unknown>,
): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
};

describe("bad-input corpus: resources (check, offline)", () => {
  const total = Object.values(CASES).reduce((n, c) => n + c.length, 0);

  after(() => {
    const per = RESOURCE_KINDS.map((k) => `${k} ${CASES[k].length}`).join(", ");
    console.log(
      `      [figure] bad input, resources: ${total} cases (${per}), all rejected by check before any request`,
    );
  });

  it("covers every kind, and each kind's valid base passes check offline", async () => {
    for (const kind of RESOURCE_KINDS) {
      assert.ok(CASES[kind].length >= 5, `${kind} has cases`);
      // Their live rules need the API once inputs are valid: BuildTrigger's slot, DomainRegistration's extension.
      if (kind === "BuildTrigger" || kind === "DomainRegistration") continue;
      const r = await handlerFor(kind).check(undefined, BASE[kind], offlineContext);
      assert.deepEqual(r.failures ?? [], [], `${kind} base: ${JSON.stringify(r.failures)}`);
    }
  });

  for (const kind of RESOURCE_KINDS)
    describe(kind, () => {
      for (const [field, rule, change] of CASES[kind])
        it(`refuses ${field} (${JSON.stringify(change)})`, async () => {
          const news = withChange(BASE[kind], change);
          const r = await handlerFor(kind).check(undefined, news, offlineContext);
          const reasons = (r.failures ?? []).map((f) => f.reason);
          assert.ok(reasons.length > 0, `accepted: ${JSON.stringify(news)}`);
          assert.ok(
            reasons.some(
              (reason) => reason.startsWith(`${field}: `) && rule.test(reason.slice(field.length + 2)),
            ),
            `no failure names ${field} with ${String(rule)}: ${JSON.stringify(reasons)}`,
          );
        });
    });
});
