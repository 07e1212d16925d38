/**
 * The parameters of every function, as strict zod objects in program naming: the rules the sdk
 * applies before it sends (its schemas, reused), checked here up front so that an invoke's bad input
 * names the program's field. The functions' TypeScript parameter types are asserted equal to these
 * (table.ts). Zod only: loading this loads no client and no Pulumi.
 */
import { z } from "zod";
import { ScriptNameSchema, UuidSchema } from "../../sdk/schemas/builds";
import { DomainSearchQuerySchema } from "../../sdk/schemas/registrar";
import { SearchInstanceIdSchema, SearchJobIdSchema, SearchNamespaceSchema } from "../../sdk/schemas/search";
import { accountId } from "./email-params";

export { EmailAttachmentParamsSchema, SendEmailParamsSchema } from "./email-params";

const positive = z.number().int("must be a whole number").positive("must be positive");
const nonEmpty = z.string().min(1, "must not be empty");

const deadlineMs = positive
  .optional()
  .describe("Give up waiting after this many milliseconds (default 30 minutes).");
const pollIntervalMs = positive.optional().describe("Milliseconds between two looks at the build or job.");
const requireSuccess = z.boolean().optional();

/** Starting a build may also wait for it to stop. */
const startAndWait = {
  wait: z.boolean().optional().describe("Also wait until the build stopped (default false)."),
  requireSuccess: requireSuccess.describe("With `wait`: fail unless the outcome is success (default true)."),
  deadlineMs,
  pollIntervalMs,
  accountId,
};

export const TriggerBuildParamsSchema = z.strictObject({
  triggerUuid: UuidSchema.describe("The trigger to build."),
  branch: nonEmpty.optional().describe("Rule 1: a branch, a commit hash, or both."),
  commitHash: nonEmpty.optional().describe("Rule 1: a branch, a commit hash, or both."),
  ...startAndWait,
});

export const WaitForBuildParamsSchema = z.strictObject({
  buildUuid: UuidSchema.describe("The build to wait for."),
  requireSuccess: requireSuccess.describe("Fail unless the outcome is success (default false)."),
  deadlineMs,
  pollIntervalMs,
  accountId,
});

export const BuildRefSchema = z.strictObject({
  buildUuid: UuidSchema.describe("The build."),
  accountId,
});

export const RedeployParamsSchema = z.strictObject({
  scriptName: ScriptNameSchema.describe("The script whose active deployment is built again."),
  ...startAndWait,
});

export const PurgeBuildCacheParamsSchema = z.strictObject({
  triggerUuid: UuidSchema.describe("The trigger whose cache is cleared."),
  accountId,
});

export const BuildTokensParamsSchema = z.strictObject({ accountId });

export const CheckDomainParamsSchema = z.strictObject({
  domainName: nonEmpty.describe("The name to check; a malformed one is answered not registrable."),
  accountId,
});

const Q = DomainSearchQuerySchema.shape;
export const SearchDomainsParamsSchema = z.strictObject({
  query: Q.q.describe("The search term."),
  extensions: Q.extensions.describe('Extensions such as "com"; the service\'s defaults when left out.'),
  limit: Q.limit,
  accountId,
});

export const ListExtensionsParamsSchema = z.strictObject({
  accountId,
  pricedFor: z
    .string({ error: "must be a string" })
    .regex(
      /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/,
      "must be one label (letters, digits, inner hyphens)",
    )
    .optional()
    .describe('A label such as "acme": each extension is priced for `acme.<extension>`.'),
});

export const QuoteDomainParamsSchema = z.strictObject({
  domainName: nonEmpty.describe("A fully qualified domain name."),
  years: z
    .number()
    .int("must be a whole number")
    .min(1, "must be between 1 and 10")
    .max(10, "must be between 1 and 10")
    .describe("Years of registration, 1 to 10."),
  accountId,
});

const instanceId = SearchInstanceIdSchema.describe("The search instance's id.");
const namespace = SearchNamespaceSchema.optional().describe(
  "A named namespace; absent means the default one.",
);

export const TriggerSyncJobParamsSchema = z.strictObject({
  instanceId,
  namespace,
  accountId,
  reuseRunning: z
    .boolean()
    .optional()
    .describe("When a job is already running: reuse it (default), or start a new one, which ends it."),
  wait: z.boolean().optional().describe("Also wait for the job to end (default false)."),
  deadlineMs,
});

export const WaitForJobParamsSchema = z.strictObject({
  instanceId,
  namespace,
  accountId,
  jobId: SearchJobIdSchema.describe("The job to wait for."),
  deadlineMs,
  pollIntervalMs,
});

export const GetSearchInstanceStatsParamsSchema = z.strictObject({ instanceId, namespace, accountId });

export const ListAppsParamsSchema = z.strictObject({ accountId });
