/**
 * Builds: continuous deployment of a script from a GitHub repository. A repository connection,
 * a production trigger on `main` and a preview trigger on every other branch, the production build's
 * variables (one of them a secret taken from stack config), then on every `up` a production build
 * that the update waits for, and the tail of its log.
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * `pulumi config set --secret sentryAuthToken <token>`, then `pulumi up`. On the real account the
 * script and the build token already exist (the dashboard made them); `seed` stands in for that.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import { BuildTrigger, RepoConnection, TriggerEnvVars, buildLogs, triggerBuild } from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  scriptName: string;
  buildTokenUuid: string;
}

/** Makes the script if it is missing and finds the account's build token (idempotent). */
export async function seed(
  api: AccountApi,
  _em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  const scriptName = "docs-site";
  const scripts = await api.builds.scripts.list();
  if (!scripts.some((s) => s.id === scriptName)) await api.builds.scripts.upload({ scriptName });
  const [token] = await api.builds.tokens.list();
  if (!token) throw new Error("seed: the account has no build token");
  return { scriptName, buildTokenUuid: token.build_token_uuid };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  // Stays a Pulumi secret from config to the API: encrypted in state, never printed.
  const sentryAuthToken = config.requireSecret("sentryAuthToken");

  const repo = new RepoConnection("docs-site-repo", {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "1001",
    repoName: "docs-site",
  });
  const common = {
    scriptName: seeded.scriptName,
    repoConnectionUuid: repo.repoConnectionUuid,
    buildTokenUuid: seeded.buildTokenUuid,
    buildCommand: "npm ci && npm run build",
  };
  const production = new BuildTrigger("docs-site-production", {
    ...common,
    kind: "production",
    branchIncludes: ["main"],
    pathExcludes: ["*.md"],
  });
  const preview = new BuildTrigger("docs-site-preview", {
    ...common,
    kind: "preview",
    branchIncludes: ["*"],
    branchExcludes: ["main"],
  });
  const vars = new TriggerEnvVars("docs-site-production-vars", {
    triggerUuid: production.triggerUuid,
    variables: {
      NODE_ENV: { value: "production" },
      SENTRY_AUTH_TOKEN: { value: sentryAuthToken, isSecret: true },
    },
  });

  // The trigger uuid is taken from the variables resource so the build starts only once they are set.
  const build = triggerBuild({
    triggerUuid: vars.triggerUuid,
    branch: "main",
    wait: true,
    deadlineMs: 600_000,
  });
  const logs = buildLogs({ buildUuid: build.apply((b) => b?.buildUuid ?? "") });

  return {
    productionTrigger: production.triggerUuid,
    previewTrigger: preview.triggerUuid,
    variableKeys: vars.keys,
    buildOutcome: build.apply((b) => b?.buildOutcome),
    buildBranch: build.apply((b) => b?.branch),
    lastLogLine: logs.apply((l) => l?.lines.at(-1)?.text),
  };
}
