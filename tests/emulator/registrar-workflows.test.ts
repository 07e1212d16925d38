import { strict as assert } from "node:assert";
import { AbortedError, ConnectionError, DeadlineExceededError, NotFoundError, collect } from "../../sdk";
import {
  WorkflowFailedError,
  type WaitOptions,
  type WorkflowState,
  type WorkflowStatus,
} from "../../sdk/registrar";
import { useEmulator } from "../helpers/emulator";

describe("registrar workflows (emulator, through the sdk)", () => {
  const fx = useEmulator();
  const base = (): string => `/accounts/${fx.em.accountId}/registrar`;
  const calls = (fragment: string, method = "GET"): number =>
    fx.em.requestLog.filter((e) => e.method === method && e.url.includes(fragment)).length;

  /** Polling that never sleeps: each pause moves the emulator's clock, and records the states seen. */
  function waiting(seen: string[] = []): WaitOptions {
    return {
      sleep: async (ms) => fx.clock.advance(ms),
      now: () => fx.clock.now(),
      onProgress: (w: WorkflowStatus) => {
        if (seen.at(-1) !== w.state) seen.push(w.state);
      },
    };
  }

  async function control(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fx.http(method, `/__emulator/registrar${path}`, body === undefined ? {} : { body });
    assert.ok(res.status < 300, res.text);
  }

  it("polls pending → in_progress → succeeded and returns the registration", async () => {
    const created = await fx.api.registrar.registrations.create({}, { domain_name: "slow.io", years: 3 });
    assert.equal(created.status, 202);
    const seen: WorkflowState[] = [];
    const out = await fx.api.registrar.registrationWorkflow.wait({ domainName: "slow.io" }, waiting(seen));
    assert.deepEqual(seen, ["pending", "in_progress", "succeeded"]);
    assert.equal(out.state, "succeeded");
    assert.ok(out.state === "succeeded");
    assert.deepEqual(
      [out.registration.domain_name, out.registration.status, out.registration.expires_at],
      ["slow.io", "active", "2029-01-01T00:00:00.000Z"],
    );
  });

  it("backs off between polls up to the cap", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "backoff.dev" });
    const pauses: number[] = [];
    await fx.api.registrar.registrationWorkflow.wait(
      { domainName: "backoff.dev" },
      {
        ...waiting(),
        sleep: async (ms) => {
          pauses.push(ms);
          fx.clock.advance(ms);
        },
        pollIntervalMs: 1_000,
        maxPollIntervalMs: 8_000,
      },
    );
    assert.deepEqual(pauses.slice(0, 5), [1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it("stops at action_required with context.action and does not poll on; resolving it lets it finish", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "action-needed.com" });
    const seen: WorkflowState[] = [];
    const out = await fx.api.registrar.registrationWorkflow.wait(
      { domainName: "action-needed.com" },
      waiting(seen),
    );
    assert.equal(out.state, "action_required");
    assert.ok(out.state === "action_required");
    assert.match(out.action, /^Verify the registrant email address/);
    assert.equal(seen.at(-1), "action_required");
    const polls = calls("/registration-status");
    fx.clock.advance(7 * 24 * 3_600_000);
    const still = await fx.api.registrar.registrationWorkflow.status({ domainName: "action-needed.com" });
    assert.deepEqual([still.state, still.completed], ["action_required", false]);
    assert.equal(calls("/registration-status"), polls + 1, "the wait kept polling after action_required");
    assert.equal(
      (await fx.api.registrar.registrations.get({ domainName: "action-needed.com" })).status,
      "registration_pending",
    );

    await control("POST", "/workflows/action-needed.com/registration/resolve");
    const done = await fx.api.registrar.registrationWorkflow.wait(
      { domainName: "action-needed.com" },
      waiting(),
    );
    assert.equal(done.state, "succeeded");
  });

  it("keeps polling through blocked until the third party lets it through", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "blocked-at-registry.com" });
    const seen: WorkflowState[] = [];
    const out = await fx.api.registrar.registrationWorkflow.wait(
      { domainName: "blocked-at-registry.com" },
      {
        ...waiting(seen),
        maxPollIntervalMs: 1_000,
      },
    );
    assert.deepEqual(seen, ["pending", "in_progress", "blocked", "in_progress", "succeeded"]);
    assert.equal(out.state, "succeeded");
  });

  it("throws WorkflowFailedError with error.code and error.message on failed, and never retries", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "fail-validation.com" });
    await assert.rejects(
      () => fx.api.registrar.registrationWorkflow.wait({ domainName: "fail-validation.com" }, waiting()),
      (e: unknown) => {
        assert.ok(e instanceof WorkflowFailedError);
        assert.equal(e.code, "ERR_WORKFLOW_FAILED");
        assert.equal(e.error.code, "registry_rejected");
        assert.equal(
          e.error.message,
          "The registry rejected the registration of fail-validation.com: the registrant data did not pass registry validation.",
        );
        assert.equal(e.workflow.completed, true);
        assert.match(
          e.message,
          /registration workflow for fail-validation\.com failed: .* \(registry_rejected\); review/,
        );
        return true;
      },
    );
    assert.equal(calls("/registrar/registrations", "POST"), 1);
    await assert.rejects(
      () => fx.api.registrar.registrations.get({ domainName: "fail-validation.com" }),
      NotFoundError,
    );
    const status = await fx.api.registrar.registrationWorkflow.status({ domainName: "fail-validation.com" });
    assert.deepEqual([status.state, status.error?.code], ["failed", "registry_rejected"]);
    // After review the user may try again; the failed attempt did not register the domain.
    assert.equal(
      (await fx.api.registrar.registrations.create({}, { domain_name: "fail-validation.com" })).status,
      202,
    );
  });

  it("reaches every state of the table when the control API forces it", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "forced.dev", respondAsync: true });
    const expectations: [WorkflowState, boolean][] = [
      ["pending", false],
      ["in_progress", false],
      ["blocked", false],
      ["action_required", false],
      ["succeeded", true],
      ["failed", true],
    ];
    for (const [state, completed] of expectations) {
      await control("POST", "/workflows/forced.dev/registration/state", { state });
      fx.clock.advance(60 * 60_000); // a forced state holds
      const w = await fx.api.registrar.registrationWorkflow.status({ domainName: "forced.dev" });
      assert.deepEqual([w.state, w.completed], [state, completed], state);
      assert.equal(w.context?.action !== undefined, state === "action_required");
      assert.equal(w.error !== undefined, state === "failed");
      assert.equal(w.context?.registration !== undefined, state === "succeeded");
    }
  });

  it("runs an update through its workflow and fails it when the registry refuses", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "upd.com" });
    const w = await fx.api.registrar.registrations.update(
      { domainName: "upd.com" },
      { auto_renew: true, respondAsync: true },
    );
    assert.equal(w.state, "pending");
    const out = await fx.api.registrar.updateWorkflow.wait({ domainName: "upd.com" }, waiting());
    assert.ok(out.state === "succeeded");
    assert.equal(out.registration.auto_renew, true);

    await control("POST", "/scenarios", { domain_name: "upd.com", kind: "update", scenario: "failed" });
    const second = await fx.api.registrar.registrations.update(
      { domainName: "upd.com" },
      { auto_renew: false },
    );
    assert.equal(second.state, "pending");
    await assert.rejects(
      () => fx.api.registrar.updateWorkflow.wait({ domainName: "upd.com" }, waiting()),
      (e: unknown) =>
        e instanceof WorkflowFailedError &&
        e.kind === "update" &&
        e.error.code === "registry_update_rejected",
    );
    assert.equal((await fx.api.registrar.registrations.get({ domainName: "upd.com" })).auto_renew, true);
  });

  it("reports a forced failure's own code and message", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "custom.io" });
    await control("POST", "/workflows/custom.io/registration/state", {
      state: "failed",
      error: { code: "losing_registrar_refused", message: "The losing registrar refused the request." },
    });
    await assert.rejects(
      () => fx.api.registrar.registrationWorkflow.wait({ domainName: "custom.io" }, waiting()),
      (e: unknown) =>
        e instanceof WorkflowFailedError &&
        e.error.code === "losing_registrar_refused" &&
        e.error.message === "The losing registrar refused the request.",
    );
  });

  it("gives up at the deadline, measured on the injected clock, naming the last state", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "blocked-long.com" });
    const started = fx.clock.now();
    await assert.rejects(
      () =>
        fx.api.registrar.registrationWorkflow.wait(
          { domainName: "blocked-long.com" },
          {
            ...waiting(),
            deadlineMs: 10_000,
          },
        ),
      (e: unknown) =>
        e instanceof DeadlineExceededError &&
        e.message ===
          "registration workflow of blocked-long.com: not finished within 10000 ms (last state: blocked)",
    );
    assert.equal(fx.clock.now() - started, 10_000);
  });

  it("stops when its signal is aborted", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "abort.dev" });
    const ac = new AbortController();
    const before = calls("/registration-status");
    ac.abort();
    await assert.rejects(
      () =>
        fx.api.registrar.registrationWorkflow.wait(
          { domainName: "abort.dev" },
          { ...waiting(), signal: ac.signal },
        ),
      AbortedError,
    );
    assert.equal(calls("/registration-status"), before);
    const later = new AbortController();
    await assert.rejects(
      () =>
        fx.api.registrar.registrationWorkflow.wait(
          { domainName: "abort.dev" },
          {
            ...waiting(),
            signal: later.signal,
            sleep: async () => later.abort(),
          },
        ),
      AbortedError,
    );
  });

  describe("create after a lost answer (natural key: the domain name)", () => {
    it("finds the registration that landed instead of registering again", async () => {
      await fx.http("POST", "/__emulator/faults", {
        body: { method: "POST", path: "/registrar/registrations$", commitThenDrop: true, times: 1 },
      });
      const out = await fx.api.registrar.registrations.create({}, { domain_name: "landed.com" });
      assert.equal(out.recovered, true);
      assert.deepEqual([out.status, out.workflow.state], [201, "succeeded"]);
      const all = await collect(fx.api.registrar.registrations.list());
      assert.deepEqual(
        all.map((r) => r.domain_name),
        ["landed.com"],
      );
      // The dropped answer never reaches the request log; the lookup by name does.
      assert.equal(fx.em.requestLog.filter((e) => e.url.endsWith("/registrations/landed.com")).length, 1);
      assert.equal(calls("/registrations/landed.com/registration-status"), 1);
    });

    it("repeats the POST only once the lookup proved the first attempt did not land", async () => {
      await fx.http("POST", "/__emulator/faults", {
        body: { method: "POST", path: "/registrar/registrations$", reset: true, times: 1 },
      });
      const out = await fx.api.registrar.registrations.create({}, { domain_name: "retried.com" });
      assert.deepEqual([out.recovered, out.status], [false, 201]);
      const lookups = fx.em.requestLog.filter(
        (e) => e.method === "GET" && e.url.endsWith("/registrations/retried.com"),
      );
      assert.equal(lookups.length, 1, "looked up by domain name before repeating");
      assert.equal((await collect(fx.api.registrar.registrations.list())).length, 1);
    });

    it("surfaces the connection error once its attempts are spent", async () => {
      await fx.http("POST", "/__emulator/faults", {
        body: { method: "POST", path: "/registrar/registrations$", reset: true, times: 5 },
      });
      await assert.rejects(
        () => fx.api.registrar.registrations.create({}, { domain_name: "never.com" }),
        ConnectionError,
      );
      assert.equal(await fx.api.registrar.registrations.find({ domainName: "never.com" }), undefined);
    });
  });

  describe("out-of-band changes (control API)", () => {
    it("changes locked, privacy_mode, status, expires_at and auto_renew outside the program", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "drift.com" });
      await control("PATCH", "/registrations/drift.com", {
        locked: false,
        privacy_mode: "off",
        status: "suspended",
        expires_at: "2030-06-01T00:00:00Z",
        auto_renew: true,
      });
      const reg = await fx.api.registrar.registrations.get({ domainName: "drift.com" });
      assert.deepEqual(
        [reg.locked, reg.privacy_mode, reg.status, reg.expires_at, reg.auto_renew],
        [false, "off", "suspended", "2030-06-01T00:00:00.000Z", true],
      );
      const bad = await fx.http("PATCH", "/__emulator/registrar/registrations/drift.com", {
        body: { status: "gone" },
      });
      assert.equal(bad.status, 400);
    });

    it("marks a name taken elsewhere and releases a domain from the account", async () => {
      await control("POST", "/taken", { domain_name: "sniped.com" });
      const { domains } = await fx.api.registrar.discovery.check({}, { domains: ["sniped.com"] });
      assert.equal(domains[0]!.reason, "domain_unavailable");
      await control("POST", "/registrations", { domain_name: "gone.com" });
      await control("DELETE", "/registrations/gone.com");
      await assert.rejects(
        () => fx.api.registrar.registrations.get({ domainName: "gone.com" }),
        NotFoundError,
      );
    });

    it("refuses to resolve a workflow that is not waiting for an action", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "plain.com" });
      const res = await fx.http("POST", "/__emulator/registrar/workflows/plain.com/registration/resolve");
      assert.equal(res.status, 409);
      assert.match(res.text, /state is succeeded, only action_required can be resolved/);
      const kind = await fx.http("POST", "/__emulator/registrar/workflows/plain.com/transfer/resolve");
      assert.equal(kind.status, 400);
      const catalogue = await fx.http("GET", "/__emulator/registrar/catalogue");
      assert.equal(catalogue.status, 200);
      assert.equal(
        (catalogue.json as { result: { extensions: Record<string, { registration_cost: string }> } }).result
          .extensions.com!.registration_cost,
        "10.44",
      );
      assert.equal((await fx.http("GET", `${base()}/registrations/plain.com/update-status`)).status, 404);
    });
  });
});
