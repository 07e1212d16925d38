/**
 * The results of every function as zod types in program naming: what the schema's function outputs
 * and the run resources' `result` outputs are made from. table.ts asserts each equal to the
 * TypeScript type the function's logic returns. Zod only.
 */
import { z } from "zod";

const count = z.number().int();

export const BuildInfoSchema = z.object({
  buildUuid: z.string(),
  status: z.string().describe("queued, initializing, running or stopped."),
  buildOutcome: z.string().nullable().describe("success, fail, cancelled, …; null until it stopped."),
  branch: z.string().nullable(),
  commitHash: z.string().nullable(),
  triggerUuid: z.string().nullable(),
  createdOn: z.string().nullable(),
  stoppedOn: z.string().nullable(),
});

export const BuildLogsSchema = z.object({
  lines: z.array(z.object({ at: z.number(), text: z.string() })),
  truncated: z.boolean(),
});

export const RedeployInfoSchema = z.object({
  build: BuildInfoSchema,
  versionId: z.string().describe("The deployment's version that was built again."),
});

export const PurgedCacheSchema = z.object({ triggerUuid: z.string() });

export const BuildTokenInfoSchema = z.object({
  buildTokenUuid: z.string(),
  buildTokenName: z.string().nullable(),
});

export const SendEmailResultSchema = z.object({
  delivered: z.array(z.string()).describe("Delivered immediately."),
  permanentBounces: z.array(z.string()).describe("Bounced permanently: do not retry these."),
  queued: z.array(z.string()).describe("Accepted; delivery will be attempted later."),
  messageId: z.string().optional(),
  suppressedRecipients: z
    .array(z.string())
    .optional()
    .describe("Dropped because they are on the account's suppression list."),
});

const PricingSchema = z.object({
  currency: z.string(),
  registrationCost: z.string(),
  renewalCost: z.string(),
});

export const DomainAvailabilitySchema = z.object({
  name: z.string(),
  registrable: z.boolean(),
  pricing: PricingSchema.optional(),
  reason: z.string().optional().describe("Why the name cannot be registered here."),
  tier: z.string().optional(),
});

export const ExtensionSchema = z.object({
  name: z.string().describe('The full extension after a registrable label, such as "com" or "co.uk".'),
  tld: z.string().describe('Its last label: "uk" for "co.uk".'),
  registrable: z.boolean().optional().describe("With pricedFor: whether that name can be registered."),
  pricing: PricingSchema.optional().describe("With pricedFor: the price of that name."),
});

export const QuoteResultSchema = z.object({
  domainName: z.string(),
  years: count,
  currency: z.string(),
  registrationCost: z.string(),
  renewalCost: z.string(),
  total: z.string().describe("Registration cost plus the renewal cost of each further year."),
});

export const SyncJobSchema = z.object({
  id: z.string(),
  source: z.string().optional(),
  description: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  lastSeenAt: z.string().nullable().optional(),
  endedAt: z.string().nullable().optional().describe("Null while the job runs."),
  endReason: z.string().nullable().optional(),
  reused: z.boolean().describe("True when the job was already running and was reused rather than started."),
});

export const SearchInstanceStatsSchema = z.object({
  queued: count,
  running: count,
  completed: count,
  error: count,
  lastActivity: z.string().nullable(),
});

export const MeetingAppInfoSchema = z.object({
  id: z.string().describe("The app's id: what a MeetingTemplate's `appId` takes."),
  name: z.string().nullable(),
  createdAt: z.string().nullable(),
});
