/**
 * Client for the registrar area (spec section E): availability search and check, registrations and
 * their asynchronous workflows, an exact price quote, and the deprecated domain endpoints. One field
 * per sub-resource; the flat methods of release 0.1.0 stay at the end for one more minor release.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { PagedGenerator } from "../paging";
import type {
  Domain,
  DomainCheckResult,
  DomainSearchResult,
  DomainUpdate,
  Registration,
  RegistrationCreate,
  RegistrationSortField,
  SortDirection,
  WorkflowKind,
  WorkflowStatus,
} from "../schemas/registrar";
import { Discovery } from "./discovery";
import { Domains } from "./domains";
import { Extensions } from "./extensions";
import type { AccountIds, DomainIds } from "./paths";
import { Registrations, type CreateRegistrationResult, type Quote } from "./registrations";
import { Workflows, type WaitOutcome, type WorkflowWaitOptions } from "./workflows";

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
  SupportedExtension,
  ExtensionSortField,
  Tier,
  WorkflowError,
  WorkflowKind,
  WorkflowState,
  WorkflowStatus,
} from "../schemas/registrar";
export {
  addDecimal,
  compareDecimal,
  formatDecimal,
  multiplyDecimal,
  parseDecimal,
  registrationTotal,
  type Decimal,
} from "./decimal";
export { NotRegistrableError, WorkflowFailedError, type NotRegistrableReason } from "./errors";
export type { AccountIds, DomainIds } from "./paths";
export { Discovery, type DomainCheckParams, type DomainSearchParams } from "./discovery";
export { Domains, type ListDomainsQuery } from "./domains";
export { Extensions, type ExtensionIds, type ListExtensionsQuery } from "./extensions";
export {
  Registrations,
  type CreateRegistrationBody,
  type CreateRegistrationResult,
  type ListRegistrationsQuery,
  type Quote,
  type QuoteParams,
  type UpdateRegistrationBody,
} from "./registrations";
export { Workflows, type WaitOutcome, type WorkflowWaitOptions } from "./workflows";

export class RegistrarApi {
  /** `domain-search` and `domain-check`: advisory and authoritative availability. */
  readonly discovery: Discovery;
  /** Registrations of the account, and the price quote of one. */
  readonly registrations: Registrations;
  /** A registration's `registration-status` workflow. */
  readonly registrationWorkflow: Workflows;
  /** A registration's `update-status` workflow (after `registrations.update`). */
  readonly updateWorkflow: Workflows;
  /** The legacy domain endpoints (end of life 2026-09-27). */
  readonly domains: Domains;
  /** The extensions (TLDs) the registrar supports, with their registration and transfer schemas. */
  readonly extensions: Extensions;

  constructor(readonly client: ApiClient) {
    this.discovery = new Discovery(client);
    this.registrations = new Registrations(client);
    this.registrationWorkflow = new Workflows(client, "registration");
    this.updateWorkflow = new Workflows(client, "update");
    this.domains = new Domains(client);
    this.extensions = new Extensions(client);
  }

  // -------------------------------------------------------------------------------------------
  // Deprecated flat methods of release 0.1.0: each one delegates to its sub-resource method.

  /** @deprecated Since 0.2.0: use `api.registrar.discovery.search(ids, params)`; removed in 0.3.0. */
  async search({ accountId, ...query }: SearchParams, options?: CallOptions): Promise<DomainSearchResult> {
    return this.discovery.search({ accountId }, query, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.discovery.check(ids, params)`; removed in 0.3.0. */
  async check({ accountId, ...body }: CheckParams, options?: CallOptions): Promise<DomainCheckResult> {
    return this.discovery.check({ accountId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.quote(ids, { years })`; removed in 0.3.0. */
  async quoteRegistration(
    domainName: string,
    years: number,
    { accountId, ...options }: CallOptions & AccountIds = {},
  ): Promise<Quote> {
    return this.registrations.quote({ accountId, domainName }, { years }, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.list(ids, params)`; removed in 0.3.0. */
  listRegistrations(
    { accountId, sortBy, ...query }: ListRegistrationsParams = {},
    options?: CallOptions,
  ): PagedGenerator<Registration> {
    return this.registrations.list({ accountId }, { ...query, sort_by: sortBy }, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.get(ids)`; removed in 0.3.0. */
  async getRegistration(params: DomainParams, options?: CallOptions): Promise<Registration> {
    return this.registrations.get(domainIdsOf(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.find(ids)`; removed in 0.3.0. */
  async findRegistration(params: DomainParams, options?: CallOptions): Promise<Registration | undefined> {
    return this.registrations.find(domainIdsOf(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.create(ids, params)`; removed in 0.3.0. */
  async createRegistration(
    { accountId, ...body }: CreateRegistrationParams,
    options?: CallOptions,
  ): Promise<CreateRegistrationResult> {
    return this.registrations.create({ accountId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrations.update(ids, params)`; removed in 0.3.0. */
  async updateRegistration(
    { accountId, domain_name, ...body }: UpdateRegistrationParams,
    options?: CallOptions,
  ): Promise<WorkflowStatus> {
    return this.registrations.update({ accountId, domainName: domain_name }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.registrationWorkflow.status(ids)`; removed in 0.3.0. */
  async registrationStatus(params: DomainParams, options?: CallOptions): Promise<WorkflowStatus> {
    return this.registrationWorkflow.status(domainIdsOf(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.updateWorkflow.status(ids)`; removed in 0.3.0. */
  async updateStatus(params: DomainParams, options?: CallOptions): Promise<WorkflowStatus> {
    return this.updateWorkflow.status(domainIdsOf(params), options);
  }

  /**
   * @deprecated Since 0.2.0: use `api.registrar.registrationWorkflow.wait(ids, options)` or
   * `api.registrar.updateWorkflow.wait(ids, options)`; removed in 0.3.0.
   */
  async waitForWorkflow(
    domainName: string,
    kind: WorkflowKind,
    { accountId, ...options }: WaitOptions = {},
  ): Promise<WaitOutcome> {
    return (kind === "registration" ? this.registrationWorkflow : this.updateWorkflow).wait(
      { accountId, domainName },
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.registrar.domains.list(ids, params)`; removed in 0.3.0. */
  listDomains(
    { accountId, perPage }: AccountIds & { perPage?: number } = {},
    options?: CallOptions,
  ): PagedGenerator<Domain> {
    return this.domains.list({ accountId }, { perPage }, options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.domains.get(ids)`; removed in 0.3.0. */
  async getDomain(params: DomainParams, options?: CallOptions): Promise<Domain | null> {
    return this.domains.get(domainIdsOf(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.registrar.domains.update(ids, params)`; removed in 0.3.0. */
  async updateDomain(
    { accountId, domain_name, ...body }: DomainParams & DomainUpdate,
    options?: CallOptions,
  ): Promise<Domain | null> {
    return this.domains.update({ accountId, domainName: domain_name }, body, options);
  }
}

/** Each deprecated flat method of `RegistrarApi` and the sub-resource method that replaces it. */
export const DEPRECATED_REGISTRAR_METHODS: Readonly<Record<string, string>> = Object.freeze({
  search: "discovery.search",
  check: "discovery.check",
  quoteRegistration: "registrations.quote",
  listRegistrations: "registrations.list",
  getRegistration: "registrations.get",
  findRegistration: "registrations.find",
  createRegistration: "registrations.create",
  updateRegistration: "registrations.update",
  registrationStatus: "registrationWorkflow.status",
  updateStatus: "updateWorkflow.status",
  // By its `kind` argument: "registration" or "update".
  waitForWorkflow: "registrationWorkflow.wait|updateWorkflow.wait",
  listDomains: "domains.list",
  getDomain: "domains.get",
  updateDomain: "domains.update",
} satisfies Record<DeprecatedRegistrarMethod, string>);

type DeprecatedRegistrarMethod = {
  [K in keyof RegistrarApi]: RegistrarApi[K] extends
    Discovery | Registrations | Workflows | Domains | Extensions | ApiClient
    ? never
    : K;
}[keyof RegistrarApi];

// ---------------------------------------------------------------------------------------------
// Parameters of the deprecated flat methods: ids and params in one object.

/** @deprecated Since 0.2.0: the parameters of the deprecated `search`. */
export type SearchParams = AccountIds & {
  q: string;
  /** Extensions to search, such as "com" (a leading dot is dropped). */
  extensions?: string[];
  limit?: number;
};

/** @deprecated Since 0.2.0: the parameters of the deprecated `check`. */
export interface CheckParams extends AccountIds {
  domains: string[];
}

/** @deprecated Since 0.2.0: the ids of the deprecated flat methods (`domain_name`, not `domainName`). */
export interface DomainParams extends AccountIds {
  domain_name: string;
}

/** @deprecated Since 0.2.0: the parameters of the deprecated `createRegistration`. */
export type CreateRegistrationParams = RegistrationCreate &
  AccountIds & {
    /** Sends `Prefer: respond-async`: the service answers 202 at once instead of waiting briefly. */
    respondAsync?: boolean;
  };

/** @deprecated Since 0.2.0: the parameters of the deprecated `updateRegistration`. */
export interface UpdateRegistrationParams extends DomainParams {
  auto_renew: boolean;
  respondAsync?: boolean;
}

/** @deprecated Since 0.2.0: the parameters of the deprecated `listRegistrations`. */
export interface ListRegistrationsParams extends AccountIds {
  /** 1 to 50; the service's default is 20. */
  perPage?: number;
  /** The service's default is `registry_created_at`. */
  sortBy?: RegistrationSortField;
  /** The service's default is `asc`. */
  direction?: SortDirection;
}

/** @deprecated Since 0.2.0: the options of the deprecated `waitForWorkflow` (`accountId` among them). */
export interface WaitOptions extends WorkflowWaitOptions, AccountIds {}

function domainIdsOf({ accountId, domain_name }: DomainParams): DomainIds {
  return { accountId, domainName: domain_name };
}
