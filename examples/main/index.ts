/**
 * The main job's program (`npm start`): one of each resource and a few functions, against the
 * emulator. `seed` makes, idempotently, what only the dashboard or another service makes on the real
 * account: a script, a zone, a sender domain; the build token is listed as a user would.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import {
  BuildTrigger,
  ConfigRule,
  DomainRegistration,
  MeetingTemplate,
  RepoConnection,
  SearchInstance,
  TriggerEnvVars,
  ZoneContentConverter,
  sendEmail,
  triggerBuild,
  triggerSyncJob,
} from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  scriptName: string;
  buildTokenUuid: string;
  zoneId: string;
  zoneName: string;
  senderDomain: string;
}

export async function seed(
  api: AccountApi,
  em: Pick<RunningEmulator, "origin" | "accountId" | "token">,
): Promise<Seeded> {
  const scriptName = "shop";
  const zoneName = "example.com";
  const senderDomain = "example.com";
  const scripts = await api.builds.listScripts();
  if (!scripts.some((s) => s.id === scriptName)) await api.builds.uploadScript(scriptName);
  const [token] = await api.builds.listTokens();
  if (!token) throw new Error("seed: the account has no build token");
  const zone =
    (await api.content.findZone({ name: zoneName })) ??
    (await api.content.createZone({ name: zoneName, accountId: em.accountId }));
  // The sender domain is verified in the dashboard on the real service; the emulator's control API stands in.
  const res = await fetch(`${em.origin}/__emulator/email/accounts/${em.accountId}/domains/${senderDomain}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  if (!res.ok) throw new Error(`seed: registering the sender domain failed with ${res.status}`);
  return { scriptName, buildTokenUuid: token.build_token_uuid, zoneId: zone.id, zoneName, senderDomain };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const deployKey = config.getSecret("deployKey") ?? pulumi.secret("demo-deploy-key");

  // Build service: a repository connection, production and preview triggers, their variables.
  const repo = new RepoConnection("shop-repo", {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "4242",
    repoName: "shop",
  });
  const common = {
    scriptName: seeded.scriptName,
    repoConnectionUuid: repo.repoConnectionUuid,
    buildTokenUuid: seeded.buildTokenUuid,
  };
  const production = new BuildTrigger("shop-production", {
    ...common,
    kind: "production",
    buildCommand: "npm run build",
    branchIncludes: ["main"],
  });
  new BuildTrigger("shop-preview", {
    ...common,
    kind: "preview",
    buildCommand: "npm run build",
    branchExcludes: ["main"],
  });
  new TriggerEnvVars("shop-production-vars", {
    triggerUuid: production.triggerUuid,
    variables: {
      NODE_ENV: { value: "production" },
      DEPLOY_KEY: { value: deployKey, isSecret: true },
    },
  });

  // Markdown conversion: on for the zone, off under /private/, on for /docs/ explicitly.
  new ZoneContentConverter("example-markdown", { zoneId: seeded.zoneId });
  new ConfigRule("docs-markdown", {
    zoneId: seeded.zoneId,
    pathPrefix: "/docs/",
    description: "docs as markdown",
  });
  new ConfigRule("private-no-markdown", {
    zoneId: seeded.zoneId,
    pathPrefix: "/private/",
    actionParameters: { contentConverter: false },
    description: "never convert private pages",
  });

  // Meetings: a stand-up template with transcription and a summary.
  const standup = new MeetingTemplate("standup", {
    appId: "demo-app",
    title: "Daily stand-up",
    transcribeOnEnd: true,
    summarizeOnEnd: true,
    sessionKeepAliveTimeInSecs: 120,
    aiConfig: { summarization: { summaryType: "daily_standup", textFormat: "markdown", wordLimit: 300 } },
  });

  // Registrar: a registration with a price guard.
  const domain = new DomainRegistration("demo-domain", {
    domainName: "account-api-demo.com",
    years: 1,
    maxCost: { amount: "15.00", currency: "USD" },
    autoRenew: true,
  });

  // Search: an instance with a source, and a sync job on every up.
  const kb = new SearchInstance("docs-kb", {
    instanceId: "docs-kb",
    type: "web-crawler",
    source: `https://${seeded.zoneName}/docs/`,
    syncInterval: 3600,
  });
  const sync = triggerSyncJob({ instanceId: kb.instanceId, wait: true, deadlineMs: 120_000 });

  // Imperative work on `up` only: a production build, then a note to the team.
  const build = triggerBuild({
    triggerUuid: production.triggerUuid,
    branch: "main",
    wait: true,
    deadlineMs: 120_000,
  });
  const sent = sendEmail({
    from: `deploy@${seeded.senderDomain}`,
    to: `team@${seeded.senderDomain}`,
    subject: build.apply((b) => `shop built on main: ${b?.buildOutcome ?? "pending"}`),
    text: "The stack is up.",
  });

  return {
    productionTrigger: production.triggerUuid,
    meetingId: standup.meetingId,
    domainStatus: domain.status,
    domainExpiresAt: domain.expiresAt,
    searchInstance: kb.id,
    syncEndReason: sync.apply((j) => j?.endReason),
    buildOutcome: build.apply((b) => b?.buildOutcome),
    emailDelivered: sent.apply((r) => r?.delivered),
  };
}
