/**
 * Registrations (`/registrar/registrations`): list, read, create and update, and an exact price
 * quote for a registration (from an authoritative check).
 */
import { path, type ApiClient } from "../client";
import { createOnce, orGone, type CallOptions } from "../core";
import { ResponseShapeError } from "../errors";
import { cursorStyle, type PagedGenerator } from "../paging";
import {
  RegistrationCreateSchema,
  RegistrationListQuerySchema,
  RegistrationListSchema,
  RegistrationSchema,
  RegistrationUpdateSchema,
  WorkflowStatusSchema,
  YearsSchema,
  normalizeDomainName,
  type Registration,
  type RegistrationCreate,
  type RegistrationSortField,
  type SortDirection,
  type WorkflowStatus,
} from "../schemas/registrar";
import { validate } from "../validate";
import { registrationTotal } from "./decimal";
import { Discovery } from "./discovery";
import { NotRegistrableError } from "./errors";
import {
  PREFER_ASYNC,
  domainNameOf,
  readWorkflowStatus,
  registrarBase,
  type AccountIds,
  type DomainIds,
} from "./paths";

export interface ListRegistrationsQuery {
  /** 1 to 50; the service's default is 20. */
  perPage?: number;
  /** The service's default is `registry_created_at`. */
  sort_by?: RegistrationSortField;
  /** The service's default is `asc`. */
  direction?: SortDirection;
}

export type CreateRegistrationBody = RegistrationCreate & {
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

export interface UpdateRegistrationBody {
  auto_renew: boolean;
  respondAsync?: boolean;
}

export interface QuoteParams {
  years: number;
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

/** Further create attempts after one whose outcome is unknown (public-api-notes: clients retry twice). */
const CREATE_RETRIES = 2;

export class Registrations {
  readonly #discovery: Discovery;

  constructor(readonly client: ApiClient) {
    this.#discovery = new Discovery(client);
  }

  /** Registrations of the account, following `result_info.cursor` until it is empty. */
  list(
    ids: AccountIds = {},
    params: ListRegistrationsQuery = {},
    options: CallOptions = {},
  ): PagedGenerator<Registration> {
    const { perPage, sort_by, direction } = params;
    validate(
      RegistrationListQuerySchema,
      { per_page: perPage, sort_by, direction },
      "registrar.listRegistrations",
    );
    const base = registrarBase(this.client, ids.accountId);
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: `${base}/registrations`,
        query: { cursor, per_page: perPage, sort_by, direction },
        schema: RegistrationListSchema,
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor ?? null };
    });
  }

  async get(ids: DomainIds, options: CallOptions = {}): Promise<Registration> {
    const name = domainNameOf(ids.domainName, "registrar.getRegistration: domain_name");
    return this.client.request({
      method: "GET",
      path: `${registrarBase(this.client, ids.accountId)}/registrations${path`/${name}`}`,
      schema: RegistrationSchema,
      ...options,
    });
  }

  /** The registration, or undefined when the account holds none for this domain. */
  async find(ids: DomainIds, options: CallOptions = {}): Promise<Registration | undefined> {
    return orGone(this.get(ids, options));
  }

  /**
   * Starts a registration. Never registers twice: when an attempt's outcome is unknown (connection
   * lost, timeout, gateway error), the registration is looked up by its domain name (its natural
   * key) and, if the attempt landed, its workflow is returned; only otherwise is the POST repeated.
   */
  async create(
    ids: AccountIds,
    params: CreateRegistrationBody,
    options: CallOptions = {},
  ): Promise<CreateRegistrationResult> {
    const { respondAsync, ...input } = params;
    const body = validate(RegistrationCreateSchema, input, "registrar.createRegistration");
    const base = registrarBase(this.client, ids.accountId);
    const ref = { domainName: body.domain_name, accountId: ids.accountId };
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
        if (!(await this.find(ref, options))) return undefined;
        const workflow = await readWorkflowStatus(this.client, "registration", ref, options);
        return { workflow, status: workflow.completed ? 201 : 202, recovered: true };
      },
      { retries: CREATE_RETRIES },
    );
  }

  /** Changes `auto_renew` through an update workflow; poll it with `updateWorkflow.wait(ids)`. */
  async update(
    ids: DomainIds,
    params: UpdateRegistrationBody,
    options: CallOptions = {},
  ): Promise<WorkflowStatus> {
    const { respondAsync, ...input } = params;
    const name = domainNameOf(ids.domainName, "registrar.updateRegistration: domain_name");
    const body = validate(RegistrationUpdateSchema, input, "registrar.updateRegistration");
    return this.client.request({
      method: "PATCH",
      path: `${registrarBase(this.client, ids.accountId)}/registrations${path`/${name}`}`,
      body,
      ...(respondAsync ? { headers: PREFER_ASYNC } : {}),
      schema: WorkflowStatusSchema,
      ...options,
    });
  }

  /**
   * The exact price of registering the domain for `years` (rule 3), from an authoritative check.
   * Throws NotRegistrableError with the reason when the domain cannot be registered or is premium.
   */
  async quote(ids: DomainIds, params: QuoteParams, options: CallOptions = {}): Promise<Quote> {
    const name = domainNameOf(ids.domainName, "registrar.quoteRegistration: domain_name");
    const { years } = params;
    validate(YearsSchema, years, "registrar.quoteRegistration: years");
    const result = await this.#discovery.check(ids, { domains: [name] }, options);
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
}
