/**
 * Every function the package exports, as data: its name, description, zod parameters and result,
 * whether it changes something remote, and how it runs over a client. The native provider serves
 * INVOKES from it and the package schema lists them; the TypeScript functions keep their own
 * signatures and call the same `run…` logic, so there is one implementation. Loading the table loads
 * zod result types only: the parameters (the sdk's schemas of every area) when first read, and each
 * logic module when its function first runs.
 */
import type { z } from "zod";
import type { AccountApi } from "../../sdk/account-api";
import type { SendEmailResult } from "../../sdk/email";
import type * as BuildsLogic from "./builds-logic";
import type * as EmailLogic from "./email-logic";
import type * as MeetingsLogic from "./meetings-logic";
import type * as RegistrarLogic from "./registrar-logic";
import type * as SearchLogic from "./search-logic";
import type * as P from "./params";
import * as R from "./results";

export interface FunctionEntry<P extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  /** The token's last part (`account-api:index:<name>`) and the TypeScript export's name, e.g. "checkDomain". */
  readonly name: string;
  /** Markdown; becomes the schema's description. */
  readonly description: string;
  /** Strict zod object of the camelCase inputs (the same rules the TypeScript function applies). */
  readonly params: P;
  /** Zod type of the camelCase result. */
  readonly result: R;
  /**
   * Changes something remote (a build, a send, a job). Such a function is NOT offered as a native
   * invoke (the provider cannot tell a preview from an up in an Invoke); its run resource is, named here.
   */
  readonly sideEffect?: { readonly instead: "BuildRun" | "EmailSend" | "SyncJobRun" };
  run(api: AccountApi, params: z.infer<P>): Promise<z.infer<R>>;
}

// Loaded at first run, not with the table (a provider that serves no invoke never loads them).
const builds = (): typeof BuildsLogic => require("./builds-logic");
const email = (): typeof EmailLogic => require("./email-logic");
const meetings = (): typeof MeetingsLogic => require("./meetings-logic");
const registrar = (): typeof RegistrarLogic => require("./registrar-logic");
const search = (): typeof SearchLogic => require("./search-logic");
// The parameters reuse the sdk's schemas of every area: loaded when a function's parameters are read.
const params = (): typeof P => require("./params");

/** Keeps each entry's own parameter and result types while the list holds them as FunctionEntry. */
const entry = <Pa extends z.ZodObject, Re extends z.ZodType>(e: FunctionEntry<Pa, Re>): FunctionEntry => e;

const BUILD_RUN = { instead: "BuildRun" } as const;

export const FUNCTIONS: readonly FunctionEntry[] = [
  entry({
    name: "triggerBuild",
    description:
      "Starts a build of a trigger, and optionally waits for it. Every call builds again: a `BuildRun` builds only when its inputs or `triggers` change.",
    get params() {
      return params().TriggerBuildParamsSchema;
    },
    result: R.BuildInfoSchema,
    sideEffect: BUILD_RUN,
    run: (api, p) => builds().runTriggerBuild(api, p),
  }),
  entry({
    name: "waitForBuild",
    description: "Waits until a build stopped and returns it (whatever its outcome unless `requireSuccess`).",
    get params() {
      return params().WaitForBuildParamsSchema;
    },
    result: R.BuildInfoSchema,
    run: (api, p) => builds().runWaitForBuild(api, p),
  }),
  entry({
    name: "buildLogs",
    description: "Every log line of a build so far.",
    get params() {
      return params().BuildRefSchema;
    },
    result: R.BuildLogsSchema,
    run: (api, p) => builds().runBuildLogs(api, p),
  }),
  entry({
    name: "cancelBuild",
    description: "Cancels a build that has not stopped.",
    get params() {
      return params().BuildRefSchema;
    },
    result: R.BuildInfoSchema,
    sideEffect: BUILD_RUN,
    run: (api, p) => builds().runCancelBuild(api, p),
  }),
  entry({
    name: "redeployActiveDeployment",
    description: "Rule 2: rebuilds the branch and commit behind the script's active deployment.",
    get params() {
      return params().RedeployParamsSchema;
    },
    result: R.RedeployInfoSchema,
    sideEffect: BUILD_RUN,
    run: (api, p) => builds().runRedeploy(api, p),
  }),
  entry({
    name: "purgeBuildCache",
    description: "Clears a trigger's cached dependencies and build artifacts.",
    get params() {
      return params().PurgeBuildCacheParamsSchema;
    },
    result: R.PurgedCacheSchema,
    sideEffect: BUILD_RUN,
    run: (api, p) => builds().runPurgeBuildCache(api, p),
  }),
  entry({
    name: "buildTokens",
    description: "The account's build tokens (made in the dashboard), for a trigger's `buildTokenUuid`.",
    get params() {
      return params().BuildTokensParamsSchema;
    },
    result: R.BuildTokenInfoSchema.array(),
    run: (api, p) => builds().runBuildTokens(api, p),
  }),
  entry({
    name: "sendEmail",
    description:
      "Sends one message and returns the per-recipient outcome. Every call sends again: an `EmailSend` sends only when its inputs or `triggers` change.",
    get params() {
      return params().SendEmailParamsSchema;
    },
    result: R.SendEmailResultSchema,
    sideEffect: { instead: "EmailSend" },
    run: (api, p) => api.email.sending.send(...email().toSendEmailCall(p)),
  }),
  entry({
    name: "checkDomain",
    description: "Authoritative availability and pricing of one domain.",
    get params() {
      return params().CheckDomainParamsSchema;
    },
    result: R.DomainAvailabilitySchema,
    run: (api, p) => registrar().runCheckDomain(api, p),
  }),
  entry({
    name: "searchDomains",
    description: "Advisory search for registrable names: may be stale; check a name before relying on it.",
    get params() {
      return params().SearchDomainsParamsSchema;
    },
    result: R.DomainAvailabilitySchema.array(),
    run: (api, p) => registrar().runSearchDomains(api, p),
  }),
  entry({
    name: "quoteDomain",
    description:
      "The exact price of registering for `years` (registration cost, then the renewal cost for each further year). Fails with the reason for a premium or non-registrable domain.",
    get params() {
      return params().QuoteDomainParamsSchema;
    },
    result: R.QuoteResultSchema,
    run: (api, p) => registrar().runQuoteDomain(api, p),
  }),
  entry({
    name: "listExtensions",
    description:
      "The extensions (TLDs) the registrar supports, by name; answered on preview too. No prices: `quoteDomain` prices a name.",
    get params() {
      return params().ListExtensionsParamsSchema;
    },
    result: R.ExtensionSchema.array(),
    run: (api, p) => registrar().runListExtensions(api, p),
  }),
  entry({
    name: "triggerSyncJob",
    description:
      "Starts a sync job of a search instance (reusing a running one unless told not to), and optionally waits for it. Every call starts one: a `SyncJobRun` starts one only when its inputs or `triggers` change.",
    get params() {
      return params().TriggerSyncJobParamsSchema;
    },
    result: R.SyncJobSchema,
    sideEffect: { instead: "SyncJobRun" },
    run: (api, p) => search().runTriggerSyncJob(api, p),
  }),
  entry({
    name: "waitForJob",
    description: "Waits until a sync job has ended (its `endedAt` is set) and returns it.",
    get params() {
      return params().WaitForJobParamsSchema;
    },
    result: R.SyncJobSchema,
    run: (api, p) => search().runWaitForJob(api, p),
  }),
  entry({
    name: "getSearchInstanceStats",
    description: "A search instance's indexing counts, in one request.",
    get params() {
      return params().GetSearchInstanceStatsParamsSchema;
    },
    result: R.SearchInstanceStatsSchema,
    run: (api, p) => search().runGetSearchInstanceStats(api, p),
  }),
  entry({
    name: "listApps",
    description: "Every realtime app of the account (id, name, creation time), in one request.",
    get params() {
      return params().ListAppsParamsSchema;
    },
    result: R.MeetingAppInfoSchema.array(),
    run: (api, p) => meetings().runListApps(api, p),
  }),
];

/** The entry of a function by its own name (never a prototype key such as "constructor"). */
export function functionNamed(name: string): FunctionEntry | undefined {
  return FUNCTIONS.find((f) => f.name === name);
}

/** What the native provider serves as invokes: the functions that change nothing remote. */
export const INVOKES: readonly FunctionEntry[] = FUNCTIONS.filter((f) => f.sideEffect === undefined);

// The functions' TypeScript types and the table's zod types must say the same; a drift fails typecheck.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type TableAgreesWithTypes = [
  Assert<Same<z.infer<typeof P.TriggerBuildParamsSchema>, BuildsLogic.TriggerBuildParams>>,
  Assert<Same<z.infer<typeof P.WaitForBuildParamsSchema>, BuildsLogic.WaitForBuildParams>>,
  Assert<Same<z.infer<typeof P.BuildRefSchema>, BuildsLogic.BuildRef>>,
  Assert<Same<z.infer<typeof P.RedeployParamsSchema>, BuildsLogic.RedeployParams>>,
  Assert<Same<z.infer<typeof P.PurgeBuildCacheParamsSchema>, BuildsLogic.PurgeBuildCacheParams>>,
  Assert<Same<z.infer<typeof P.BuildTokensParamsSchema>, BuildsLogic.BuildTokensParams>>,
  Assert<Same<z.infer<typeof P.SendEmailParamsSchema>, EmailLogic.SendEmailInputs>>,
  Assert<Same<z.infer<typeof P.CheckDomainParamsSchema>, RegistrarLogic.CheckDomainArgs>>,
  Assert<Same<z.infer<typeof P.SearchDomainsParamsSchema>, RegistrarLogic.SearchDomainsArgs>>,
  Assert<Same<z.infer<typeof P.QuoteDomainParamsSchema>, RegistrarLogic.QuoteDomainArgs>>,
  Assert<Same<z.infer<typeof P.ListExtensionsParamsSchema>, RegistrarLogic.ListExtensionsArgs>>,
  Assert<Same<z.infer<typeof P.TriggerSyncJobParamsSchema>, SearchLogic.TriggerSyncJobParams>>,
  Assert<Same<z.infer<typeof P.WaitForJobParamsSchema>, SearchLogic.WaitForJobParams>>,
  Assert<
    Same<z.infer<typeof P.GetSearchInstanceStatsParamsSchema>, SearchLogic.GetSearchInstanceStatsParams>
  >,
  Assert<Same<z.infer<typeof R.BuildInfoSchema>, BuildsLogic.BuildInfo>>,
  Assert<Same<z.infer<typeof R.BuildLogsSchema>, BuildsLogic.BuildLogs>>,
  Assert<Same<z.infer<typeof R.RedeployInfoSchema>, BuildsLogic.RedeployInfo>>,
  Assert<Same<z.infer<typeof R.BuildTokenInfoSchema>, BuildsLogic.BuildTokenInfo>>,
  Assert<Same<z.infer<typeof R.SendEmailResultSchema>, SendEmailResult>>,
  Assert<Same<z.infer<typeof R.DomainAvailabilitySchema>, RegistrarLogic.DomainAvailabilityResult>>,
  Assert<Same<z.infer<typeof R.QuoteResultSchema>, RegistrarLogic.QuoteResult>>,
  Assert<Same<z.infer<typeof R.ExtensionSchema>, RegistrarLogic.ExtensionResult>>,
  Assert<Same<z.infer<typeof R.SyncJobSchema>, SearchLogic.SyncJob>>,
  Assert<Same<z.infer<typeof R.SearchInstanceStatsSchema>, SearchLogic.SearchInstanceStats>>,
  Assert<Same<z.infer<typeof P.ListAppsParamsSchema>, MeetingsLogic.ListAppsParams>>,
  Assert<Same<z.infer<typeof R.MeetingAppInfoSchema>, MeetingsLogic.MeetingAppInfo>>,
];
