/**
 * The foundation: the real engine, built here, runs a dynamic provider that loads this package at run
 * time, through the full up → preview → refresh → destroy cycle on a local backend.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { useE2E } from "./harness";

/** A small dynamic provider: its create loads this package (as the shim does) and records its version. */
const probeProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    const pkg = require("pulumi-account-api/package.json") as { name: string; version: string };
    return { id: `probe-${String(inputs.label)}`, outs: { ...inputs, loaded: `${pkg.name}@${pkg.version}` } };
  },
  async read(id: string, props: Record<string, unknown>) {
    return { id, props };
  },
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { changes: olds.label !== news.label };
  },
  async delete() {
    // nothing remote to remove
  },
};

class Probe extends pulumi.dynamic.Resource {
  declare readonly loaded: pulumi.Output<string>;
  constructor(name: string, label: string) {
    super(probeProvider, name, { label, loaded: undefined }, {}, "account-api", "Probe");
  }
}

describe("engine end to end (real pulumi CLI, file backend)", function () {
  this.timeout(240_000);
  const e2e = useE2E("engine");

  it("runs a dynamic provider from this package through up, preview, refresh and destroy", async () => {
    const stack = await e2e.stack(async () => {
      const probe = new Probe("probe", "one");
      return { loaded: probe.loaded, id: probe.id };
    });
    const version = await stack.stack.workspace.pulumiVersion;
    assert.match(version, /^3\.\d+\.\d+/);

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 2); // the stack and the probe
    assert.equal(up.outputs.id?.value, "probe-one");
    assert.match(String(up.outputs.loaded?.value), /^pulumi-account-api@\d+\.\d+\.\d+/);
    assert.ok(
      stack.output.some((l) => /Probe/.test(l) && /created/.test(l)),
      "engine output shows the create",
    );

    const preview = await stack.preview({ expectNoChanges: true });
    assert.equal(preview.changeSummary.create ?? 0, 0);
    assert.equal(preview.changeSummary.update ?? 0, 0);

    await stack.refresh({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.equal(destroy.summary.resourceChanges?.delete, 2);
    assert.ok(
      stack.output.some((l) => /deleted/.test(l)),
      "engine output shows the delete",
    );
  });
});
