/**
 * Client for the registrar area (spec section E): availability search and check, registrations and
 * their asynchronous workflows, an exact price quote, and the deprecated domain endpoints.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import {
  callOptions,
  createOnce,
  orGone,
  pollUntil,
  type CallOptions,
  type WaitOptions as PollWaitOptions,
} from "./core";
import { AccountApiError, ResponseShapeError } from "./errors";
import { cursorStyle, pageStyle, type PagedGenerator } from "./paging";
import {
  DomainCheckRequestSchema,
  DomainCheckResultSchema,
  DomainNameSchema,
  DomainSchema,
  DomainSearchQuerySchema,
  DomainSearchResultSchema,
  DomainUpdateSchema,
  RegistrationCreateSchema,
  RegistrationListQuerySchema,
  RegistrationListSchema,
  RegistrationSchema,
  RegistrationUpdateSchema,
  WorkflowStatusSchema,
  YearsSchema,
  normalizeDomainName,
  type AvailabilityReason,
  type Domain,
  type DomainAvailability,
  type DomainCheckResult,
  type DomainSearchResult,
  type DomainUpdate,
  type Registration,
  type RegistrationCreate,
  type RegistrationSortField,
  type SortDirection,
  type WorkflowError,
  type WorkflowKind,
  type WorkflowStatus,
} from "./schemas/registrar";
import { validate } from "./validate";

export type {
  AvailabilityReason,
  Contact,
  Contacts,
  Domain,
  DomainAvailability,
  DomainCheckResult,
  DomainSearchResult,
  DomainUpdate,
  Pricing,
  PrivacyMode,
  Registration,
  RegistrationCreate,
  RegistrationSortField,
  RegistrationStatus,
  SortDirection,
  Tier,
  WorkflowError,
  WorkflowKind,
  WorkflowState,
  WorkflowStatus,
} from "./schemas/registrar";

interface AccountParam {
  /** Falls back to the client's default account. */
  accountId?: string;
}

// ---------------------------------------------------------------------------------------------
// Exact decimal arithmetic for prices: amounts are scaled integers (bigint), never floats.

export interface Decimal {
  /** The amount times 10^scale. */
  units: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const m = DECIMAL.exec(text.trim());
  if (!m)
    throw new AccountApiError(
      "ERR_DECIMAL",
      `${JSON.stringify(text)}: must be a non-negative decimal string`,
    );
  const fraction = m[2] ?? "";
  return { units: BigInt(m[1]! + fraction), scale: fraction.length };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function formatDecimal(d: Decimal): string {
  const digits = d.units.toString().padStart(d.scale + 1, "0");
  return d.scale === 0 ? digits : `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function multiplyDecimal(a: Decimal, factor: number): Decimal {
  if (!Number.isSafeInteger(factor) || factor < 0) {
    throw new AccountApiError("ERR_DECIMAL", `factor: must be a non-negative whole number, got ${factor}`);
  }
  return { units: a.units * BigInt(factor), scale: a.scale };
}

/** -1, 0 or 1, comparing two decimal strings exactly ("10.4" equals "10.40"). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/**
 * Rule 3 of spec E: year one at `registration_cost`, each later year at `renewal_cost`. The result has
 * as many decimals as the more precise of the two prices.
 */
export function registrationTotal(registrationCost: string, renewalCost: string, years: number): string {
  validate(YearsSchema, years, "registration total");
  return formatDecimal(
    addDecimal(parseDecimal(registrationCost), multiplyDecimal(parseDecimal(renewalCost), years - 1)),
  );
}

// ---------------------------------------------------------------------------------------------
// Errors of this area

/** A registration or update workflow ended in `failed`. Never retried automatically (spec E, States). */
export class WorkflowFailedError extends AccountApiError {
  /** The workflow's own error (`code`, `message`), distinct from HTTP error codes. */
  readonly error: WorkflowError;
  readonly workflow: WorkflowStatus;
  readonly domainName: string;
  readonly kind: WorkflowKind;
  constructor(domainName: string, kind: WorkflowKind, workflow: WorkflowStatus) {
    const error = workflow.error ?? { code: "unknown", message: "the workflow failed without an error body" };
    super(
      "ERR_WORKFLOW_FAILED",
      `${kind} workflow for ${domainName} failed: ${error.message} (${error.code}); review before trying again`,
    );
    this.error = error;
    this.workflow = workflow;
    this.domainName = domainName;
    this.kind = kind;
  }
}

/**
 * Why a domain cannot be registered through this API; `not_in_result` when the check left it out.
 * The check's reason is read openly: a reason the service adds later comes through as sent.
 */
export type NotRegistrableReason = AvailabilityReason | "not_in_result" | (string & {});

/** The check says the domain cannot be registered here (or it is premium, which this API refuses). */
export class NotRegistrableError extends AccountApiError {
  readonly domainName: string;
  readonly reason: NotRegistrableReason;
  readonly entry: DomainAvailability | undefined;
  constructor(domainName: string, reason: NotRegistrableReason, entry?: DomainAvailability) {
    super("ERR_NOT_REGISTRABLE", `${domainName}: cannot be registered through this API (${reason})`);
    this.domainName = domainName;
    this.reason = reason;
    this.entry = entry;
  }
}

// ---------------------------------------------------------------------------------------------
// Parameters and results

export interface SearchParams extends AccountParam {
  q: string;
  /** Extensions to search, such as "com" (a leading dot is dropped). */
  extensions?: string[];
  limit?: number;
}

export interface CheckParams extends AccountParam {
  domains: string[];
}

export interface DomainParams extends AccountParam {
  domain_name: string;
}

export type CreateRegistrationParams = RegistrationCreate &
  AccountParam & {
    /** Sends `Prefer: respond-async`: the service answers 202 at once instead of waiting briefly. */
    respondAsync?: boolean;
  };

export interface CreateRegistrationResult {
  workflow: WorkflowStatus;
  /**
   * 201: the workflow completed within the service's synchronous window; 202: it goes on, poll it.
   * After a recovered create (see `recovered`) it is 201 when the workflow has completed, else 202.
   */
  status: 201 | 202;
  /** The first attempt's answer was lost and the registration was found by its domain name. */
  recovered: boolean;
}

export interface UpdateRegistrationParams extends DomainParams {
  auto_renew: boolean;
  respondAsync?: boolean;
}

export interface ListRegistrationsParams extends AccountParam {
  /** 1 to 50; the service's default is 20. */
  perPage?: number;
  /** The service's default is `registry_created_at`. */
  sortBy?: RegistrationSortField;
  /** The service's default is `asc`. */
  direction?: SortDirection;
}

export type WaitOutcome =
  | { state: "succeeded"; workflow: WorkflowStatus; registration: Registration }
  | { state: "action_required"; workflow: WorkflowStatus; action: string };

/**
 * Defaults: `deadlineMs` 15 minutes, `pollIntervalMs` 1 s doubling up to `maxPollIntervalMs` 15 s.
 */
export interface WaitOptions extends PollWaitOptions, AccountParam {
  /** Called with every status read. */
  onProgress?: (workflow: WorkflowStatus) => void;
}

export interface Quote {
  domain_name: string;
  years: number;
  currency: string;
  registration_cost: string;
  renewal_cost: string;
  /** registration_cost + (years − 1) × renewal_cost, exact. */
  total: string;
}

const PREFER_ASYNC = { prefer: "respond-async" };
/** Further create attempts after one whose outcome is unknown (public-api-notes: clients retry twice). */
const CREATE_RETRIES = 2;

export class RegistrarApi {
  constructor(readonly client: ApiClient) {}

  #base(accountId: string | undefined): string {
    return path`/accounts/${this.client.account(accountId)}/registrar`;
  }

  #domain(name: string, context: string): string {
    return validate(DomainNameSchema, name, context);
  }

  /** Advisory availability: possibly stale (spec E, rule 2); use `check` before registering. */
  async search(params: SearchParams, options: CallOptions = {}): Promise<DomainSearchResult> {
    const { accountId, ...query } = params;
    const q = validate(DomainSearchQuerySchema, query, "registrar.search");
    return this.client.request({
      method: "GET",
      path: `${this.#base(accountId)}/domain-search`,
      query: { q: q.q, extensions: q.extensions, limit: q.limit },
      schema: DomainSearchResultSchema,
      ...options,
    });
  }

  /** Authoritative, real-time availability with pricing. A POST that only reads, so it may be retried. */
  async check(params: CheckParams, options: CallOptions = {}): Promise<DomainCheckResult> {
    const { accountId, ...body } = params;
    validate(DomainCheckRequestSchema, body, "registrar.check");
    return this.client.request({
      method: "POST",
      path: `${this.#base(accountId)}/domain-check`,
      body,
      idempotent: true,
      schema: DomainCheckResultSchema,
      ...options,
    });
  }

  /**
   * The exact price of registering `domainName` for `years` (rule 3), from an authoritative check.
   * Throws NotRegistrableError with the reason when the domain cannot be registered or is premium.
   */
  async quoteRegistration(
    domainName: string,
    years: number,
    options: CallOptions & AccountParam = {},
  ): Promise<Quote> {
    const name = this.#domain(domainName, "registrar.quoteRegistration: domain_name");
    validate(YearsSchema, years, "registrar.quoteRegistration: years");
    const { accountId, ...rest } = options;
    const result = await this.check({ domains: [name], ...(accountId ? { accountId } : {}) }, rest);
    const entry = result.domains.find((d) => normalizeDomainName(d.name) === name);
    if (!entry) throw new NotRegistrableError(name, "not_in_result");
    if (entry.tier === "premium") throw new NotRegistrableError(name, "domain_premium", entry);
    if (!entry.registrable) throw new NotRegistrableError(name, entry.reason ?? "domain_unavailable", entry);
    if (!entry.pricing) {
      throw new ResponseShapeError(
        "POST",
        "/registrar/domain-check",
        `${name}: registrable but without pricing`,
      );
    }
    const p = entry.pricing;
    return {
      domain_name: name,
      years,
      currency: p.currency,
      registration_cost: p.registration_cost,
      renewal_cost: p.renewal_cost,
      total: registrationTotal(p.registration_cost, p.renewal_cost, years),
    };
  }

  /** Registrations of the account, following `result_info.cursor` until it is empty. */
  listRegistrations(
    params: ListRegistrationsParams = {},
    options: CallOptions = {},
  ): PagedGenerator<Registration> {
    const { perPage, sortBy, direction } = params;
    validate(
      RegistrationListQuerySchema,
      { per_page: perPage, sort_by: sortBy, direction },
      "registrar.listRegistrations",
    );
    const base = this.#base(params.accountId);
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: `${base}/registrations`,
        query: { cursor, per_page: perPage, sort_by: sortBy, direction },
        schema: RegistrationListSchema,
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor ?? null };
    });
  }

  async getRegistration(params: DomainParams, options: CallOptions = {}): Promise<Registration> {
    const name = this.#domain(params.domain_name, "registrar.getRegistration: domain_name");
    return this.client.request({
      method: "GET",
      path: `${this.#base(params.accountId)}/registrations${path`/${name}`}`,
      schema: RegistrationSchema,
      ...options,
    });
  }

  /** The registration, or undefined when the account holds none for this domain. */
  async findRegistration(params: DomainParams, options: CallOptions = {}): Promise<Registration | undefined> {
    return orGone(this.getRegistration(params, options));
  }

  /**
   * Starts a registration. Never registers twice: when an attempt's outcome is unknown (connection
   * lost, timeout, gateway error), the registration is looked up by its domain name (its natural
   * key) and, if the attempt landed, its workflow is returned; only otherwise is the POST repeated.
   */
  async createRegistration(
    params: CreateRegistrationParams,
    options: CallOptions = {},
  ): Promise<CreateRegistrationResult> {
    const { accountId, respondAsync, ...input } = params;
    const body = validate(RegistrationCreateSchema, input, "registrar.createRegistration");
    const base = this.#base(accountId);
    const ref = { domain_name: body.domain_name, accountId };
    return createOnce<CreateRegistrationResult>(
      async () => {
        const res = await this.client.requestWithInfo({
          method: "POST",
          path: `${base}/registrations`,
          body,
          ...(respondAsync ? { headers: PREFER_ASYNC } : {}),
          schema: WorkflowStatusSchema,
          idempotent: false,
          ...options,
        });
        return { workflow: res.value, status: res.status === 201 ? 201 : 202, recovered: false };
      },
      async () => {
        if (!(await this.findRegistration(ref, options))) return undefined;
        const workflow = await this.registrationStatus(ref, options);
        return { workflow, status: workflow.completed ? 201 : 202, recovered: true };
      },
      { retries: CREATE_RETRIES },
    );
  }

  /** Changes `auto_renew` through an update workflow; poll it with `waitForWorkflow(…, "update")`. */
  async updateRegistration(
    params: UpdateRegistrationParams,
    options: CallOptions = {},
  ): Promise<WorkflowStatus> {
    const { accountId, respondAsync, domain_name, ...input } = params;
    const name = this.#domain(domain_name, "registrar.updateRegistration: domain_name");
    const body = validate(RegistrationUpdateSchema, input, "registrar.updateRegistration");
    return this.client.request({
      method: "PATCH",
      path: `${this.#base(accountId)}/registrations${path`/${name}`}`,
      body,
      ...(respondAsync ? { headers: PREFER_ASYNC } : {}),
      schema: WorkflowStatusSchema,
      ...options,
    });
  }

  async registrationStatus(params: DomainParams, options: CallOptions = {}): Promise<WorkflowStatus> {
    return this.#status("registration", params, options);
  }

  async updateStatus(params: DomainParams, options: CallOptions = {}): Promise<WorkflowStatus> {
    return this.#status("update", params, options);
  }

  async #status(kind: WorkflowKind, params: DomainParams, options: CallOptions): Promise<WorkflowStatus> {
    const name = this.#domain(params.domain_name, `registrar.${kind}Status: domain_name`);
    const leaf = kind === "registration" ? "registration-status" : "update-status";
    return this.client.request({
      method: "GET",
      path: `${this.#base(params.accountId)}/registrations${path`/${name}/${leaf}`}`,
      schema: WorkflowStatusSchema,
      ...options,
    });
  }

  /**
   * Polls a workflow with backoff until the table of spec E says to stop: returns the registration on
   * `succeeded`, returns `context.action` on `action_required` (it never resolves by itself), keeps
   * polling through `pending`, `in_progress` and `blocked`, and throws WorkflowFailedError on
   * `failed` without retrying.
   */
  async waitForWorkflow(
    domainName: string,
    kind: WorkflowKind,
    options: WaitOptions = {},
  ): Promise<WaitOutcome> {
    const name = this.#domain(domainName, "registrar.waitForWorkflow: domain_name");
    validate(WaitOptionsSchema, options, "registrar.waitForWorkflow");
    const ref = { domain_name: name, ...(options.accountId ? { accountId: options.accountId } : {}) };
    const workflow = await pollUntil(
      `${kind} workflow of ${name}`,
      (call) => this.#status(kind, ref, call),
      (w) => {
        if (w.state === "failed") throw new WorkflowFailedError(name, kind, w);
        // pending, in_progress and blocked keep polling; action_required never resolves by itself.
        return w.state === "succeeded" || w.state === "action_required" ? w : undefined;
      },
      {
        ...options,
        deadlineMs: options.deadlineMs ?? 15 * 60_000,
        pollIntervalMs: options.pollIntervalMs ?? 1_000,
        maxPollIntervalMs: options.maxPollIntervalMs ?? 15_000,
        onProgress: (w) => options.onProgress?.(w),
        describe: (w) => w.state,
      },
    );
    if (workflow.state === "action_required") {
      return {
        state: "action_required",
        workflow,
        action: workflow.context?.action ?? "the service did not say which action is required",
      };
    }
    const registration =
      (kind === "registration" ? workflow.context?.registration : undefined) ??
      (await this.getRegistration(ref, callOptions(options)));
    return { state: "succeeded", workflow, registration };
  }

  // -------------------------------------------------------------------------------------------
  // Deprecated domain endpoints

  /** @deprecated Use {@link RegistrarApi.listRegistrations}; the domains endpoints reach end of life on 2026-09-27. */
  listDomains(
    params: AccountParam & { perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<Domain> {
    const base = this.#base(params.accountId);
    return pageStyle(async (page, perPage) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: `${base}/domains`,
        query: { page, per_page: perPage },
        // The contract lets a page's result be null: no domains on it.
        schema: z.array(DomainSchema).nullable(),
        ...options,
      });
      return { items: res.value ?? [], ...(res.resultInfo ? { info: res.resultInfo } : {}) };
    }, params.perPage ?? 20);
  }

  /** @deprecated Use {@link RegistrarApi.getRegistration}; the domains endpoints reach end of life on 2026-09-27. */
  async getDomain(params: DomainParams, options: CallOptions = {}): Promise<Domain | null> {
    const name = this.#domain(params.domain_name, "registrar.getDomain: domain_name");
    return this.client.request({
      method: "GET",
      path: `${this.#base(params.accountId)}/domains${path`/${name}`}`,
      // The contract's result is an object or null.
      schema: DomainSchema.nullable(),
      ...options,
    });
  }

  /** @deprecated Use {@link RegistrarApi.updateRegistration}; the domains endpoints reach end of life on 2026-09-27. */
  async updateDomain(params: DomainParams & DomainUpdate, options: CallOptions = {}): Promise<Domain | null> {
    const { accountId, domain_name, ...input } = params;
    const name = this.#domain(domain_name, "registrar.updateDomain: domain_name");
    const body = validate(DomainUpdateSchema, input, "registrar.updateDomain");
    return this.client.request({
      method: "PUT",
      path: `${this.#base(accountId)}/domains${path`/${name}`}`,
      body,
      schema: DomainSchema.nullable(),
      ...options,
    });
  }
}

const WaitOptionsSchema = z.looseObject({
  deadlineMs: z.number().positive("must be > 0").optional(),
  pollIntervalMs: z.number().positive("must be > 0").optional(),
  maxPollIntervalMs: z.number().positive("must be > 0").optional(),
});
