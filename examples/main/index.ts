/**
 * The main job's program (`npm start`): one of each resource and a build, a sync job and a send, against the
 * emulator. `seed` makes, idempotently, what only the dashboard or another service makes on the real
 * account (the emulator's demo seed): a script, a zone, a sender domain; and names the build token.
 */
import * as pulumi from "@pulumi/pulumi";
import { seedDemo, type DemoSeed } from "../../emulator/seed";
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
  BuildRun,
  EmailSend,
  SyncJobRun,
} from "../../provider";
import type { AccountApi } from "../../sdk";

export type Seeded = DemoSeed;

/** The emulator's demo seed (`account-api emulator --seed demo`): looked up first, so a second run writes nothing. */
export async function seed(_api: AccountApi, em: RunningEmulator): Promise<Seeded> {
  return seedDemo(em);
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

  // Search: an instance with a source.
  const kb = new SearchInstance("docs-kb", {
    instanceId: "docs-kb",
    type: "web-crawler",
    source: `https://${seeded.zoneName}/docs/`,
    syncInterval: 3600,
  });
  // Imperative work as runs: each happens when created and again only when an input or a trigger
  // changes, so a second `up` with nothing changed starts nothing and sends nothing.
  const sync = new SyncJobRun("docs-kb-sync", {
    instanceId: kb.instanceId,
    wait: true,
    deadlineMs: 120_000,
    triggers: [kb.source],
  });

  // A production build when the trigger's build settings change, then a note to the team.
  const build = new BuildRun("shop-main-build", {
    triggerUuid: production.triggerUuid,
    branch: "main",
    wait: true,
    deadlineMs: 120_000,
    triggers: [production.buildCommand, production.branchIncludes],
  });
  const sent = new EmailSend("shop-built-note", {
    from: `deploy@${seeded.senderDomain}`,
    to: `team@${seeded.senderDomain}`,
    subject: build.result.apply((b) => `shop built on main: ${b.buildOutcome ?? "pending"}`),
    text: "The stack is up.",
    triggers: [build.id],
  });

  return {
    productionTrigger: production.triggerUuid,
    meetingId: standup.meetingId,
    domainStatus: domain.status,
    domainExpiresAt: domain.expiresAt,
    searchInstance: kb.id,
    syncEndReason: sync.result.apply((j) => j.endReason),
    buildOutcome: build.result.apply((b) => b.buildOutcome),
    emailDelivered: sent.result.apply((r) => r.delivered),
  };
}
