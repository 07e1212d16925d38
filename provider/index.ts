/** The Pulumi side: the eight resources and the functions for programs. */
// First, before undici loads: a clear error on Node older than 22.
import "../sdk/require-node";
export { AccountApiResource, TYPE_MODULE } from "./resource";
export type { CommonArgs } from "./resource";
export { PartialCreateError, ResourceInputError } from "./errors";
export type { ProviderConfig, ProviderKind, ResourceKind, RunKind } from "./types";

export { BuildTrigger } from "./resources/build-trigger";
export type { BuildTriggerArgs, BuildTriggerInputs, BuildTriggerOutputs } from "./resources/build-trigger";
export { TriggerEnvVars } from "./resources/trigger-env-vars";
export type {
  TriggerEnvVarsArgs,
  TriggerEnvVarsInputs,
  TriggerEnvVarsOutputs,
  TriggerEnvVarInput,
} from "./resources/trigger-env-vars";
export { RepoConnection } from "./resources/repo-connection";
export type {
  RepoConnectionArgs,
  RepoConnectionInputs,
  RepoConnectionOutputs,
} from "./resources/repo-connection";
export { ZoneContentConverter } from "./resources/zone-content-converter";
export type {
  ZoneContentConverterArgs,
  ZoneContentConverterInputs,
  ZoneContentConverterOutputs,
} from "./resources/zone-content-converter";
export { ConfigRule } from "./resources/config-rule";
export type { ConfigRuleArgs, ConfigRuleInputs, ConfigRuleOutputs } from "./resources/config-rule";
export { MeetingTemplate } from "./resources/meeting-template";
export type {
  MeetingTemplateArgs,
  MeetingTemplateInputs,
  MeetingTemplateOutputs,
} from "./resources/meeting-template";
export { DomainRegistration } from "./resources/domain-registration";
export type {
  DomainRegistrationArgs,
  DomainRegistrationInputs,
  DomainRegistrationOutputs,
} from "./resources/domain-registration";
export { SearchInstance } from "./resources/search-instance";
export { MeetingApp } from "./resources/meeting-app";
export type { MeetingAppArgs, MeetingAppInputs, MeetingAppOutputs } from "./resources/meeting-app";
export { SearchNamespace } from "./resources/search-namespace";
export type {
  SearchNamespaceArgs,
  SearchNamespaceInputs,
  SearchNamespaceOutputs,
} from "./resources/search-namespace";
export { SearchToken } from "./resources/search-token";
export type { SearchTokenArgs, SearchTokenInputs, SearchTokenOutputs } from "./resources/search-token";
export { SendingDomain } from "./resources/sending-domain";
export type {
  SendingDomainArgs,
  SendingDomainInputs,
  SendingDomainOutputs,
} from "./resources/sending-domain";
export type {
  SearchInstanceArgs,
  SearchInstanceInputs,
  SearchInstanceOutputs,
} from "./resources/search-instance";

export {
  triggerBuild,
  waitForBuild,
  buildLogs,
  cancelBuild,
  redeployActiveDeployment,
  purgeBuildCache,
  buildTokens,
} from "./functions/builds";
export type {
  TriggerBuildParams,
  WaitForBuildParams,
  BuildInfo,
  RedeployParams,
  PurgeBuildCacheParams,
  BuildTokensParams,
  BuildTokenInfo,
} from "./functions/builds";
export { sendEmail } from "./functions/email";
export type { SendEmailArgs } from "./functions/email";
export { checkDomain, searchDomains, quoteDomain, listExtensions } from "./functions/registrar";
export type {
  CheckDomainArgs,
  SearchDomainsArgs,
  QuoteDomainArgs,
  QuoteResult,
  ListExtensionsArgs,
  ExtensionResult,
} from "./functions/registrar";
export { triggerSyncJob, waitForJob, waitForSyncJob, getSearchInstanceStats } from "./functions/search";
export { listApps } from "./functions/meetings";
export type { ListAppsParams, MeetingAppInfo } from "./functions/meetings";
export type {
  TriggerSyncJobArgs,
  WaitForJobArgs,
  SyncJob,
  GetSearchInstanceStatsArgs,
  SearchInstanceStats,
} from "./functions/search";

// Runs: a build, a send, a sync job that happen on create and again only when an input or `triggers` changes.
export { BuildRun } from "./runs/build-run";
export type { BuildRunArgs, BuildRunInputs, BuildRunOutputs } from "./runs/build-run";
export { EmailSend } from "./runs/email-send";
export type { EmailSendArgs, EmailSendInputs, EmailSendOutputs } from "./runs/email-send";
export { SyncJobRun } from "./runs/sync-job-run";
export type { SyncJobRunArgs, SyncJobRunInputs, SyncJobRunOutputs } from "./runs/sync-job-run";
