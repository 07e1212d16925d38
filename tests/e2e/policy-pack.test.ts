/**
 * The policy pack on the real engine (`pulumi preview --policy-pack`), run by the nodejs language host
 * as the engine runs any policy pack, with no network:
 * - a YAML program on the native plugin, the packed package installed as a user installs it and
 *   @pulumi/policy beside it, whose registration has no price guard and whose variable `NPM_TOKEN` is
 *   plain: the preview fails, naming each resource and rule; fixed, it passes, with the advisory
 *   rule on a trigger that deploys production from every branch reported but not blocking, until
 *   the pack's config (`--policy-pack-config`) makes it mandatory;
 * - the main job's program (examples/main, the dynamic resources) previews with the pack and passes.
 * `npm run build` first when running this file alone: the pack runs from dist.
 */
import { strict as assert } from "node:assert";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { program as mainProgram, seed } from "../../examples/main";
import { POLICY_NAMES } from "../../policy/policies";
import { REPO_ROOT, useE2E } from "./harness";
import { nativeProject, type NativeProject } from "./native-project";

const TRIGGER = "8d3a7c36-60a5-4c2e-9d55-2f3f5a1c9b10";

function yamlProgram(o: { guarded: boolean; secretToken: boolean }): string {
  return `resources:
  site:
    type: account-api:index:DomainRegistration
    properties:
      domainName: policy-demo.com
      years: 1
${o.guarded ? '      maxCost:\n        amount: "25.00"\n        currency: USD\n' : ""}  ci-vars:
    type: account-api:index:TriggerEnvVars
    properties:
      triggerUuid: ${TRIGGER}
      variables:
        NODE_VERSION:
          value: "22"
        NPM_TOKEN:
          value: npm-token-value
          isSecret: ${o.secretToken}
  every-branch:
    type: account-api:index:BuildTrigger
    properties:
      externalScriptId: 0f6e3b8e2a4c4d1f9b7a5c3e1d2f4a6b
      repoConnectionUuid: ${TRIGGER}
      buildTokenUuid: ${TRIGGER}
      branchIncludes: ["*"]
      deployCommand: npx wrangler deploy
`;
}

describe("policy pack on the real engine (pulumi preview --policy-pack)", function () {
  this.timeout(10 * 60_000);

  describe("a YAML program on the native plugin", () => {
    let p: NativeProject;
    let pack = "";

    before(async function () {
      this.timeout(20 * 60_000);
      p = await nativeProject("policy-yaml");
      // As `npm install --save-dev @pulumi/policy` puts it beside the installed package (copied, not
      // linked: a link would resolve its @pulumi/pulumi from this checkout, not the project's).
      const modules = join(p.dir, "..", "project", "node_modules");
      cpSync(join(REPO_ROOT, "node_modules", "@pulumi", "policy"), join(modules, "@pulumi", "policy"), {
        recursive: true,
      });
      pack = join(modules, "pulumi-account-api", "dist", "policy");
    });

    after(async () => {
      await p?.close();
    });

    it("fails a preview that breaks the mandatory rules, naming each resource and rule; passes once fixed with an advisory warning, which the pack's config can make mandatory", async () => {
      p.program(yamlProgram({ guarded: false, secretToken: false }));
      await p.initStack("dev");
      const started = Date.now();
      const blocked = await p.pulumi("preview", "--policy-pack", pack);
      console.log(`      [figure] a blocked preview with the pack: ${Date.now() - started} ms`);
      assert.equal(blocked.ok, false, "the preview fails");
      for (const [rule, resource, words] of [
        [POLICY_NAMES.priceGuard, "site", 'DomainRegistration "site" (policy-demo.com) has no maxCost'],
        [POLICY_NAMES.plainCredential, "ci-vars", 'TriggerEnvVars "ci-vars": variables.NPM_TOKEN'],
      ]) {
        assert.ok(blocked.out.includes(rule), `the output names the rule ${rule}`);
        assert.ok(blocked.out.includes(words), `the output names the resource ${resource}`);
      }
      assert.match(blocked.out, /mandatory/);
      assert.ok(!blocked.out.includes("NODE_VERSION looks like"), "a plain variable of another name passes");

      p.program(yamlProgram({ guarded: true, secretToken: true }));
      const passed = await p.pulumi("preview", "--policy-pack", pack);
      assert.ok(passed.ok, `the fixed program passes:\n${passed.out}`);
      // The advisory rule is reported and does not block.
      assert.ok(passed.out.includes(`[advisory]  ${POLICY_NAMES.productionEveryBranch}`));
      assert.ok(passed.out.includes('BuildTrigger "every-branch" deploys production from every branch'));
      assert.ok(!passed.out.includes(POLICY_NAMES.priceGuard));
      assert.ok(!passed.out.includes(POLICY_NAMES.plainCredential));

      // The pack's config raises the advisory rule to mandatory: the same program is then blocked.
      const config = join(p.dir, "policy-config.json");
      writeFileSync(config, JSON.stringify({ [POLICY_NAMES.productionEveryBranch]: "mandatory" }));
      const raised = await p.pulumi("preview", "--policy-pack", pack, "--policy-pack-config", config);
      assert.equal(raised.ok, false, "a mandatory rule from the config blocks the preview");
      assert.ok(raised.out.includes(`[mandatory]  ${POLICY_NAMES.productionEveryBranch}`));
    });
  });

  describe("the main job's program (TypeScript, dynamic resources)", () => {
    const e2e = useE2E("policy-main");

    it("passes with the pack", async () => {
      const seeded = await seed(e2e.api, e2e.emulator);
      const stack = await e2e.stack(() => mainProgram(seeded), {
        config: { "account-api-main:deployKey": { value: "deploy-key-policy-test", secret: true } },
      });
      const started = Date.now();
      const preview = await stack.stack.preview({
        policyPacks: [join(REPO_ROOT, "dist", "policy")],
        onOutput: (l) => stack.output.push(l),
      });
      console.log(`      [figure] the main program's preview with the pack: ${Date.now() - started} ms`);
      const out = stack.output.join("");
      process.stdout.write(out.replace(/^(?=.)/gm, "      | "));
      assert.equal(preview.changeSummary.create, 14);
      assert.match(out, /Policies:[\s\S]*account-api@v0\.1\.0/, "the pack ran");
      for (const name of Object.values(POLICY_NAMES)) assert.ok(!out.includes(name), `no ${name} violation`);
    });
  });
});
