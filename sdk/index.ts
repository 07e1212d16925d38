/** The typed client's whole public surface: `AccountApi`, the transport, errors and every area. */
// First, before undici loads: a clear error on Node older than 22.
import "./require-node";
import { BuildsApi } from "./builds";
import { ContentApi } from "./content";
import { EmailApi } from "./email";
import { MeetingsApi } from "./meetings";
import { RegistrarApi } from "./registrar";
import { SearchApi } from "./search";

// What the provider host and the sdk's own modules use is `./account-api` (areas load on first use);
// this index is the whole surface for users.
export { AccountApi } from "./account-api";
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
