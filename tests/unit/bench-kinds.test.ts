/**
 * The bench's per-kind request counts (bench/kinds.ts), their pure parts: the request templates, the
 * split of a run's requests into phases, the table; and that every resource kind has a program shape
 * whose inputs pass the kind's check and a plain script that works against the emulator (no engine).
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import {
  kindRequestsMarkdown,
  requestTemplate,
  splitByPhase,
  type KindRequests,
  type PhaseRequests,
} from "../../bench/kinds";
import { tasks } from "../../bench/plain";
import { graph, worldNeeds, type ProgramSpec } from "../../bench/programs";
import { runGraph } from "../../bench/stats";
import { startWorld, type World } from "../../bench/world";
import { handlerFor } from "../../provider/registry";
import { RESOURCE_KINDS } from "../../provider/types";
import * as sdk from "../../sdk";
import { offlineContext } from "../helpers/provider-context";

const ACCOUNT = "023e105f4ecef8ad9ca31a8372d0c353";
const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";

describe("bench: requests per resource, by kind", () => {
  describe("requestTemplate", () => {
    it("drops the API prefix and names ids {id}: hex, uuids, numbered names, domains, keys", () => {
      assert.equal(
        requestTemplate("GET", `/client/v4/accounts/${ACCOUNT}/ai-search/instances/bench-3/stats`),
        "GET /accounts/{id}/ai-search/instances/{id}/stats",
      );
      assert.equal(
        requestTemplate(
          "DELETE",
          `/client/v4/accounts/${ACCOUNT}/builds/triggers/${UUID}/environment_variables/MODE`,
        ),
        "DELETE /accounts/{id}/builds/triggers/{id}/environment_variables/{id}",
      );
      assert.equal(
        requestTemplate("GET", `/client/v4/accounts/${ACCOUNT}/registrar/registrations/bench-0.com`),
        "GET /accounts/{id}/registrar/registrations/{id}",
      );
    });

    it("keeps the API's words, and of a query its parameter names only, sorted once each", () => {
      assert.equal(
        requestTemplate("PUT", `/client/v4/zones/${ACCOUNT}/rulesets/phases/http_config_settings/entrypoint`),
        "PUT /zones/{id}/rulesets/phases/http_config_settings/entrypoint",
      );
      assert.equal(
        requestTemplate("GET", `/client/v4/zones?per_page=50&name=a.example.org&page=2&page=3`),
        "GET /zones?name&page&per_page",
      );
      assert.equal(
        requestTemplate("POST", `/client/v4/accounts/${ACCOUNT}/registrar/domain-check`),
        "POST /accounts/{id}/registrar/domain-check",
      );
    });
  });

  describe("splitByPhase", () => {
    const served = [
      { method: "POST", url: `/client/v4/accounts/${ACCOUNT}/ai-search/instances` },
      { method: "GET", url: `/client/v4/accounts/${ACCOUNT}/ai-search/instances/bench-0` },
      { method: "GET", url: `/client/v4/accounts/${ACCOUNT}/ai-search/instances/bench-1` },
      { method: "DELETE", url: `/client/v4/accounts/${ACCOUNT}/ai-search/instances/bench-0` },
    ];

    it("gives each phase, in order, as many requests as it counted, by template", () => {
      const split = splitByPhase(served, { up: 1, refresh: 2, destroy: 1 });
      assert.deepEqual(split.up, { total: 1, byRequest: { "POST /accounts/{id}/ai-search/instances": 1 } });
      assert.deepEqual(split.refresh, {
        total: 2,
        byRequest: { "GET /accounts/{id}/ai-search/instances/{id}": 2 },
      });
      assert.deepEqual(split.destroy, {
        total: 1,
        byRequest: { "DELETE /accounts/{id}/ai-search/instances/{id}": 1 },
      });
    });

    it("refuses counts that do not add up to the requests served", () => {
      assert.throws(
        () => splitByPhase(served, { up: 1, refresh: 1, destroy: 1 }),
        /counted 3 requests, the emulator answered 4/,
      );
    });
  });

  describe("kindRequestsMarkdown", () => {
    const phase = (byRequest: Record<string, number>): PhaseRequests => ({
      total: Object.values(byRequest).reduce((a, b) => a + b, 0),
      byRequest,
    });
    const get = "GET /accounts/{id}/ai-search/instances/{id}";
    const stats = `${get}/stats`;
    const row: KindRequests = {
      kind: "SearchInstance",
      count: 4,
      ours: {
        up: phase({ "POST /accounts/{id}/ai-search/instances": 4, [get]: 4, [stats]: 2 }),
        refresh: phase({ [get]: 4 }),
        destroy: phase({}),
      },
      plain: {
        up: phase({ "POST /accounts/{id}/ai-search/instances": 4 }),
        refresh: phase({ [get]: 8 }),
        destroy: phase({}),
      },
    };
    const lines = kindRequestsMarkdown([row]).trimEnd().split("\n");

    it("has one row per kind and phase under the five columns", () => {
      assert.equal(lines.length, 2 + 3);
      assert.match(
        lines[0]!,
        /^\| kind \| phase \| ours per resource \| plain per resource \| requests only ours make/,
      );
    });

    it("gives requests per resource, and each request ours makes more of, with how many more", () => {
      assert.equal(lines[2], `| SearchInstance | up | 2.5 | 1 | \`${get}\` +1<br>\`${stats}\` +0.5 |`);
      // Fewer than plain is nothing extra.
      assert.equal(lines[3], "| SearchInstance | refresh | 1 | 2 | none |");
      assert.equal(lines[4], "| SearchInstance | destroy | 0 | 0 | none |");
    });
  });

  describe("every resource kind", () => {
    /** A world as startWorld makes it for `needs`, without an emulator: distinct ids per index. */
    const fakeWorld = (kind: (typeof RESOURCE_KINDS)[number], count: number): World => {
      const n = worldNeeds(kind, count);
      const ids = (k: number, prefix: string): string[] =>
        Array.from({ length: k }, (_, i) => `${prefix}${String(i).padStart(4, "0")}${"0".repeat(27)}`);
      return {
        url: "http://127.0.0.1:1/client/v4",
        origin: "http://127.0.0.1:1",
        accountId: ACCOUNT,
        token: "t",
        buildToken: UUID,
        scriptTags: ids(n.scripts, "a"),
        appId: "bench",
        repoConnection: n.repoConnection || n.triggers > 0 ? UUID : "",
        triggers: Array.from({ length: n.triggers }, () => UUID),
        zones: ids(n.zones, "b"),
        domains: Array.from({ length: n.domains }, (_, i) => `bench-${i}.com`),
        registrant: {
          name: "G H",
          organization: "O",
          email: "g@example.com",
          phone: "+1.5555550100",
          street: "1 Road",
          city: "C",
          state: "S",
          postalCode: "1",
          countryCode: "GB",
        },
      };
    };

    for (const kind of RESOURCE_KINDS)
      it(`${kind}: its shape declares N of the kind, whose inputs pass the kind's check`, async () => {
        const count = 3;
        const declared: { kind: string; name: string; inputs: Record<string, unknown> }[] = [];
        const spec: ProgramSpec = { variant: "ours", shape: kind, count, world: fakeWorld(kind, count) };
        graph(spec, (k, name, inputs) => {
          declared.push({ kind: k, name, inputs });
          return pulumi.output(name);
        });
        assert.deepEqual(
          declared.map((d) => d.kind),
          Array(count).fill(kind),
        );
        assert.equal(new Set(declared.map((d) => d.name)).size, count, "names are distinct");
        // Once inputs are valid, BuildTrigger's check asks the API for the script's slot, and
        // DomainRegistration's for the registrar's extensions (tests/provider/registrar.test.ts).
        if (kind === "BuildTrigger" || kind === "DomainRegistration") return;
        for (const d of declared) {
          const r = await handlerFor(kind).check(undefined, d.inputs, offlineContext);
          assert.deepEqual(r.failures ?? [], [], `${d.name}: ${JSON.stringify(r.failures)}`);
        }
      });

    for (const kind of RESOURCE_KINDS)
      it(`${kind}: the plain script runs up, refresh and destroy of N against the emulator, up one request or more each`, async () => {
        const count = 2;
        const world = await startWorld(worldNeeds(kind, count));
        const api = new sdk.AccountApi({
          baseUrl: world.world.url,
          token: world.world.token,
          accountId: world.world.accountId,
          env: {},
        });
        try {
          const made = { repo: [], trigger: [], meeting: [], token: [], sendingDomain: [] };
          const counts: Record<string, number> = {};
          for (const phase of ["up", "refresh", "destroy"] as const) {
            const before = world.requests();
            const phaseTasks = tasks({ api, sdk, w: world.world, made }, kind, count, phase);
            assert.equal(phaseTasks.size, count, `${phase}: one task per resource`);
            await runGraph(phaseTasks, 16);
            counts[phase] = world.requests() - before;
          }
          assert.ok(counts.up! >= count, `up made ${counts.up} requests for ${count} resources`);
          assert.ok(counts.refresh! >= 1, "refresh read");
          const split = splitByPhase(world.served(), counts);
          assert.equal(split.up.total, counts.up);
        } finally {
          await api.close();
          await world.stop();
        }
      });
  });
});
