import { strict as assert } from "node:assert";
import { availability, searchCandidates } from "../../emulator/registrar/catalogue";
import {
  BLOCKED_MS,
  PENDING_MS,
  SYNC_WINDOW_MS,
  collapse,
  completesAt,
  force,
  plan,
  resume,
  stateAt,
  type WorkflowRecord,
} from "../../emulator/registrar/workflow";
import { DomainNameSchema, normalizeDomainName } from "../../sdk/schemas/registrar";
import { addYears } from "../../emulator/registrar/state";

const T0 = Date.parse("2026-01-01T00:00:00Z");

function record(scenario: Parameters<typeof plan>[0], processing = 3_000): WorkflowRecord {
  return {
    kind: "registration",
    domain_name: "x.com",
    created_at: T0,
    steps: plan(scenario, T0, processing),
    processing_ms: processing,
  };
}

describe("registrar emulator model: workflow timelines", () => {
  it("goes pending → in_progress → succeeded by the clock", () => {
    const w = record("normal", 3_000);
    assert.equal(stateAt(w, T0), "pending");
    assert.equal(stateAt(w, T0 + PENDING_MS), "in_progress");
    assert.equal(stateAt(w, T0 + 2_999), "in_progress");
    assert.equal(stateAt(w, T0 + 3_000), "succeeded");
    assert.equal(completesAt(w), T0 + 3_000);
  });

  it("holds action_required until resumed, then completes after the processing time", () => {
    const w = record("action_required");
    assert.equal(stateAt(w, T0 + 10 * 24 * 3_600_000), "action_required");
    assert.equal(completesAt(w), undefined);
    const later = T0 + 60_000;
    resume(w, later);
    assert.equal(stateAt(w, later), "in_progress");
    assert.equal(stateAt(w, later + 3_000), "succeeded");
  });

  it("lifts a block after a while", () => {
    const w = record("blocked");
    assert.equal(stateAt(w, T0 + 2_000), "blocked");
    assert.equal(stateAt(w, T0 + 2_000 + BLOCKED_MS - 1), "blocked");
    assert.equal(stateAt(w, T0 + 2_000 + BLOCKED_MS), "in_progress");
    assert.equal(stateAt(w, T0 + 2_000 + BLOCKED_MS + 3_000), "succeeded");
  });

  it("fails only after the synchronous window, so a failure is always seen by polling", () => {
    const w = record("failed", 0);
    assert.ok(completesAt(w)! - T0 > SYNC_WINDOW_MS);
    assert.equal(stateAt(w, completesAt(w)!), "failed");
  });

  it("collapses a plan the server waited for, and forces a state from now on", () => {
    const w = record("normal");
    collapse(w, T0);
    assert.equal(stateAt(w, T0), "succeeded");
    const v = record("normal", 45_000);
    force(v, T0 + 5_000, "blocked");
    assert.equal(stateAt(v, T0 + 4_999), "in_progress");
    assert.equal(stateAt(v, T0 + 10 * 60_000), "blocked");
  });
});

describe("registrar emulator model: catalogue", () => {
  const none = { registered: () => false, extraTaken: [], authoritative: true };

  it("prices a supported extension and refuses the others with their reason", () => {
    assert.deepEqual(availability("fresh.com", none), {
      name: "fresh.com",
      registrable: true,
      tier: "standard",
      pricing: { currency: "USD", registration_cost: "10.44", renewal_cost: "10.44" },
    });
    assert.equal(availability("fresh.uk", none).reason, "extension_not_supported_via_api");
    assert.equal(availability("fresh.tk", none).reason, "extension_disallows_registration");
    assert.equal(availability("fresh.zz", none).reason, "extension_not_supported");
    assert.equal(availability("example.com", none).reason, "domain_unavailable");
    assert.deepEqual(availability("premium-cars.com", none), {
      name: "premium-cars.com",
      registrable: false,
      reason: "domain_premium",
      tier: "premium",
    });
  });

  it("lets the stale search index say registrable where the check says unavailable", () => {
    assert.equal(availability("stale-name.com", { ...none, authoritative: false }).registrable, true);
    assert.equal(availability("stale-name.com", none).reason, "domain_unavailable");
  });

  it("searches the exact name first, then the label under each extension", () => {
    assert.deepEqual(searchCandidates("Acme.io", ["com", "io"]), ["acme.io", "acme.com"]);
    assert.deepEqual(searchCandidates("my shop!", undefined).slice(0, 2), ["myshop.com", "myshop.net"]);
    assert.deepEqual(searchCandidates("!!!", undefined), []);
  });

  it("normalizes names: lower case, punycode, no trailing dot; refuses bad syntax with the rule", () => {
    assert.equal(normalizeDomainName("Bücher.DE."), "xn--bcher-kva.de");
    assert.equal(DomainNameSchema.parse("Example.COM"), "example.com");
    for (const bad of [
      "nodot",
      "-lead.com",
      "trail-.com",
      "a..b.com",
      "under_score.com",
      `${"a".repeat(64)}.com`,
      "x.c0m",
    ]) {
      const r = DomainNameSchema.safeParse(bad);
      assert.ok(!r.success, bad);
      assert.match(r.error.issues[0]!.message, /must be a fully qualified domain name/);
    }
  });

  it("adds calendar years in UTC", () => {
    assert.equal(new Date(addYears(T0, 2)).toISOString(), "2028-01-01T00:00:00.000Z");
  });
});
