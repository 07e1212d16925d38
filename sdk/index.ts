/** The typed client: one object per area over one shared transport. */
// First, before undici loads: a clear error on Node older than 22.
import "./require-node";
import { ApiClient, type ClientOptions } from "./client";
import { BuildsApi } from "./builds";
import { ContentApi } from "./content";
import { EmailApi } from "./email";
import { MeetingsApi } from "./meetings";
import { RegistrarApi } from "./registrar";
import { SearchApi } from "./search";

export class AccountApi {
  readonly client: ApiClient;
  readonly builds: BuildsApi;
  readonly email: EmailApi;
  readonly content: ContentApi;
  readonly meetings: MeetingsApi;
  readonly registrar: RegistrarApi;
  readonly search: SearchApi;

  constructor(options: ClientOptions = {}) {
    this.client = new ApiClient(options);
    this.builds = new BuildsApi(this.client);
    this.email = new EmailApi(this.client);
    this.content = new ContentApi(this.client);
    this.meetings = new MeetingsApi(this.client);
    this.registrar = new RegistrarApi(this.client);
    this.search = new SearchApi(this.client);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

export * from "./errors";
export { ApiClient, DEFAULT_BASE_URL, path, retryDelay, parseRetryAfter, resolveConfig } from "./client";
export type {
  ClientOptions,
  RequestSpec,
  TransportEvent,
  RetryOptions,
  ResultInfo,
  HttpMethod,
} from "./client";
export { pageStyle, cursorStyle, collect, paged } from "./paging";
export type { Paged, PagedGenerator, Page, CursorPage } from "./paging";
export { backoff, pollUntil, createOnce, mayHaveLanded, orGone, callOptions, systemClock } from "./core";
export type {
  CallOptions,
  Clock,
  WaitOptions,
  BackoffOptions,
  PollOptions,
  PollProgress,
  CreateOnceOptions,
} from "./core";
export { validate, describeIssues } from "./validate";
export { BuildsApi, ContentApi, EmailApi, MeetingsApi, RegistrarApi, SearchApi };

// Each area's full surface (types, helpers, errors) as a namespace, e.g. `registrar.WorkflowFailedError`;
// also importable as `pulumi-account-api/sdk/<area>`.
export * as builds from "./builds";
export * as email from "./email";
export * as content from "./content";
export * as meetings from "./meetings";
export * as registrar from "./registrar";
export * as search from "./search";

// The names most programs reach for, at the top level.
export { RedeployError, ScriptNotFoundError, REDEPLOY_STEPS } from "./builds";
export { EmailErrorCode, EMAIL_ERRORS, EMAIL_MAX_BYTES, emailError, emailBodyBytes } from "./email";
export { parseMarkdownDocument, parseContentSignal } from "./content";
export type { MarkdownFetchResult } from "./content";
export { WorkflowFailedError, NotRegistrableError, registrationTotal, compareDecimal } from "./registrar";
export type { Registration, WorkflowStatus, WaitOutcome, Quote } from "./registrar";
export type { SearchInstance, SearchJob, SearchStats } from "./search";
