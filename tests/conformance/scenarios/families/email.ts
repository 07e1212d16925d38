/**
 * The email families' operations against the contract: a zone's sending subdomains (with their DNS
 * records, status and fix, and the preview) and the account's suppressions, each success and each
 * documented 4xx (403 with a token of another account, 400 on a malformed id or body, 404, 409).
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { z } from "zod";
import * as G from "../../../../sdk/generated/email";
import type { AreaScenario, ConformanceKit } from "../../kit";
import { callFor, expectCall, expectRaw } from "./exchange";

/** A suppression as the contract's results name it (the fields the scenario reads). */
const Suppression = z.looseObject({ id: z.string(), email: z.string(), read_only: z.boolean() });
/** The bulk import's answer: counts, and one entry per item sent. */
const BulkOutcome = z.looseObject({
  processed: z.number(),
  skipped: z.number(),
  invalid: z.number(),
  deduplicated: z.number(),
  items: z.array(z.looseObject({ index: z.number(), status: z.string() })),
});

/** A request with a token of another account (the routes' 403). */
async function asStranger(kit: ConformanceKit, method: "GET" | "POST", path: string): Promise<number> {
  const token = kit.emulator.auth.add({
    scope: "account",
    permissions: ["email:send"],
    accountId: "0123456789abcdef0123456789abcdef",
  }).value;
  const res = await request(`${kit.emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "x-conformance-direct": "1" },
  });
  await res.body.text();
  return res.statusCode;
}

async function subdomains(kit: ConformanceKit): Promise<void> {
  const zone = await kit.api.content.zones.create({}, { name: "mail-conformance.example.com" });
  const base = `/zones/${zone.id}/email/sending/subdomains`;
  const name: z.input<typeof G.EmailSendingSubdomainsCreateSendingSubdomainBody> = {
    name: "news.mail-conformance.example.com",
  };
  const preview = await callFor(
    kit,
    G.EmailSendingSubdomainsPreviewSendingSubdomainResult,
    "POST",
    `${base}/preview`,
    name,
  );
  const made = await callFor(kit, G.EmailSendingSubdomainsCreateSendingSubdomainResult, "POST", base, name);
  const listed = await callFor(kit, G.EmailSendingSubdomainsListSendingSubdomainsResult, "GET", base);
  assert.deepEqual(
    listed.map((s) => s.tag),
    [made.tag],
  );
  const at = `${base}/${made.tag}`;
  await callFor(kit, G.EmailSendingSubdomainsGetSendingSubdomainResult, "GET", at);
  const edit: z.input<typeof G.EmailSendingSubdomainsEditBody> = {
    preview_enabled: true,
    drop_suppressed_recipients: true,
  };
  await callFor(kit, G.EmailSendingSubdomainsGetSendingSubdomainResult, "PATCH", at, edit);

  const records = await callFor(
    kit,
    G.EmailSendingSubdomainsGetSendingSubdomainDnsResult,
    "GET",
    `${at}/dns`,
  );
  assert.deepEqual(records, preview.records);
  const pending = await callFor(
    kit,
    G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult,
    "GET",
    `${at}/dns/status`,
  );
  assert.equal(pending.status, "unconfigured");
  // The fix: 403 for a token of another account, 404 for an unknown subdomain, 400 for an id that
  // cannot be one, then made; a second fix finds nothing to fix (409).
  assert.equal(await asStranger(kit, "POST", `${at}/dns`), 403);
  await expectCall(kit, 404, "POST", `${base}/0123456789abcdef0123456789abcdef/dns`);
  await expectCall(kit, 400, "POST", `${base}/${"x".repeat(33)}/dns`);
  const fixed = await callFor(kit, G.EmailSendingSubdomainsFixSendingSubdomainDnsResult, "POST", `${at}/dns`);
  assert.equal(fixed.status, "ready");
  await expectCall(kit, 409, "POST", `${at}/dns`);
  await expectCall(kit, 404, "GET", `${base}/0123456789abcdef0123456789abcdef/dns/status`);
  await expectCall(kit, 400, "GET", `${base}/${"x".repeat(33)}/dns/status`);
  await callFor(kit, G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult, "GET", `${at}/dns/status`);

  await expectRaw(kit, 400, "POST", base, { name: 5 });
  await expectCall(kit, 200, "DELETE", at);
}

async function suppressions(kit: ConformanceKit): Promise<void> {
  const base = `/accounts/${kit.accountId}/email/sending/suppressions`;
  const create: z.input<typeof G.EmailSendingSuppressionsCreateBody> = {
    email: "ada@dest.test",
    note: "asked",
    expires_at: null,
    scope: { type: "sending_domain", value: "example.com" },
  };
  const made = await callFor(kit, Suppression, "POST", base, create);
  const bulk: z.input<typeof G.EmailSendingSuppressionsImportBody> = {
    items: [
      {
        email: "bob@dest.test",
        note: "bulk",
        expires_at: "2100-01-01T00:00:00Z",
        scope: { type: "account" },
      },
      { email: "bob@dest.test" },
      { email: "not-an-address" },
      { email: "ada@dest.test", scope: { type: "sending_domain", value: "example.com" } },
    ],
  };
  const outcome = await callFor(kit, BulkOutcome, "POST", `${base}/bulk`, bulk);
  assert.deepEqual(
    outcome.items.map((i) => i.status),
    ["processed", "skipped", "invalid", "skipped"],
  );
  assert.deepEqual([outcome.processed, outcome.skipped, outcome.invalid, outcome.deduplicated], [1, 2, 1, 1]);
  await expectCall(kit, 409, "POST", base, create);
  await expectRaw(kit, 400, "POST", base, { email: "ada@dest.test", scope: { type: "zone" } });
  const page = await callFor(
    kit,
    z.array(Suppression),
    "GET",
    `${base}?per_page=1&reason=manual&scope_type=sending_domain&scope_value=example.com&search=dest`,
  );
  assert.deepEqual(
    page.map((s) => s.id),
    [made.id],
  );
  await callFor(kit, z.array(Suppression), "GET", `${base}?email=bob@dest.test`);
  const at = `${base}/${made.id}`;
  await callFor(kit, Suppression, "GET", at);
  const edit: z.input<typeof G.EmailSendingSuppressionsEditBody> = {
    note: "changed",
    expires_at: null,
    scope: { type: "account" },
  };
  await callFor(kit, Suppression, "PATCH", at, edit);
  await callFor(kit, Suppression.pick({ id: true }), "DELETE", at);
  await expectCall(kit, 404, "GET", at);
}

export const scenario: AreaScenario = {
  area: "email",
  part: "families",
  async run(kit) {
    await subdomains(kit);
    await suppressions(kit);
  },
};
