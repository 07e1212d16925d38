/**
 * The registrar's state model: registrations and their workflows, kept as plain JSON in the store and
 * read through the clock. Registration status, expiry and the effect of updates are derived from
 * stored timestamps when asked. It never sees HTTP; errors carry status and code for the one renderer.
 */
import type { Clock } from "../clock";
import { dict, type Dict, type Store } from "../store";
import type {
  Contacts,
  DomainAvailability,
  LegacyContact,
  PrivacyMode,
  RegistrationStatus,
  WorkflowError,
  WorkflowKind,
  WorkflowState,
} from "../../sdk/schemas/registrar";
import {
  MAX_DOMAINS_PER_ACCOUNT,
  extensionOf,
  isDomainName,
  normalizeDomainName,
} from "../../sdk/schemas/registrar";
import { UNSUPPORTED, availability, extensionInfo, searchCandidates } from "./catalogue";
import { DomainError, badRequest, conflict, notFound } from "../http";
import {
  DEFAULT_ACTION,
  SYNC_WINDOW_MS,
  UPDATE_PROCESSING_MS,
  collapse,
  completesAt,
  defaultError,
  force,
  plan,
  refusedMove,
  resume,
  stateAt,
  type ConsoleMove,
  type Scenario,
  type WorkflowRecord,
} from "./workflow";

export interface RegistrationRecord {
  seq: number;
  domain_name: string;
  years: number;
  created_at: number;
  updated_at: number;
  auto_renew: boolean;
  privacy_mode: PrivacyMode;
  locked: boolean;
  /** The contacts given at create, as given. */
  contacts?: Contacts;
  /** State files of the release before contacts took their postal_info shape: the registrant as it was. */
  registrant?: LegacyContact;
  /** Out-of-band changes made through the control API win over the derived values. */
  status_override?: RegistrationStatus;
  /** Epoch ms, or null; absent when not overridden. */
  expires_at_override?: number | null;
}

/** One account's registrations: another account can neither read nor change them. */
export interface AccountRegistrar {
  registrations: Dict<RegistrationRecord>;
  /** Latest workflow per `${kind}:${domain}`. */
  workflows: Dict<WorkflowRecord>;
  /** Scenario the next workflow of `${kind}:${domain}` follows (control API). */
  armed: Dict<Scenario>;
}

export interface RegistrarState {
  accounts: Dict<AccountRegistrar>;
  /** Names marked taken elsewhere through the control API (the registry is shared). */
  taken: string[];
}

/** State files written before registrations were kept per account held one account's at the top. */
type StoredRegistrar = Partial<RegistrarState> & Partial<AccountRegistrar>;

function freshAccount(): AccountRegistrar {
  return { registrations: dict(), workflows: dict(), armed: dict() };
}

/** The derived, current view of a registration (times in epoch ms). */
export interface RegistrationView {
  record: RegistrationRecord;
  status: RegistrationStatus;
  auto_renew: boolean;
  expires_at: number | null;
}

export interface CreateInput {
  domain_name: string;
  years?: number | undefined;
  auto_renew?: boolean | undefined;
  privacy_mode?: PrivacyMode | undefined;
  contacts?: Contacts | undefined;
}

/**
 * HTTP-level error codes of the registrar area. The spec does not show them (Errors: "registrar (HTTP
 * level) … not shown"); the emulator uses the 13000 range, documented in docs/areas/registrar.md.
 * They are distinct from workflow `error.code` strings, which live in the workflow body.
 */
export const REGISTRAR_CODES = {
  invalidRequest: 13001,
  notFound: 13002,
  alreadyRegistered: 13003,
  notRegistrable: 13004,
  premiumNotSupported: 13005,
  domainLimit: 13006,
  workflowInProgress: 13007,
  registrationPending: 13008,
  notApplicable: 13009,
  deprecated: 13100,
} as const;

export const invalid = (message: string): DomainError => badRequest(message, REGISTRAR_CODES.invalidRequest);
const registrarNotFound = (what: string): DomainError => notFound(what, REGISTRAR_CODES.notFound);
const registrarConflict = (code: number, message: string): DomainError => conflict(message, code);
const unprocessable = (code: number, message: string): DomainError => new DomainError(422, { code, message });

const key = (kind: WorkflowKind, domain: string): string => `${kind}:${domain}`;

/** A label prefix picks the scenario of a registration workflow (docs/areas/registrar.md). */
function scenarioFromName(domain: string): Scenario {
  const label = domain.slice(0, domain.indexOf("."));
  if (label.startsWith("action-")) return "action_required";
  if (label.startsWith("blocked-")) return "blocked";
  if (label.startsWith("fail-")) return "failed";
  return "normal";
}

export function addYears(ms: number, years: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

export class Registrar {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The account whose registrations this model reads and writes. */
    private readonly accountId: string,
  ) {}

  get #root(): RegistrarState {
    const root = this.store.area<StoredRegistrar>("registrar", () => ({ accounts: dict(), taken: [] }));
    if (!root.accounts) {
      const { registrations = dict(), workflows = dict(), armed = dict() } = root;
      root.accounts = dict({ [this.store.accountId]: { registrations, workflows, armed } });
      delete root.registrations;
      delete root.workflows;
      delete root.armed;
    }
    root.taken ??= [];
    return { accounts: root.accounts, taken: root.taken };
  }

  /** This account's registrations, and the names taken at the (shared) registry. */
  get data(): AccountRegistrar & { taken: string[] } {
    const root = this.#root;
    const account = (root.accounts[this.accountId] ??= freshAccount());
    return { ...account, taken: root.taken };
  }

  now(): number {
    return this.clock.now();
  }

  workflowOf(kind: WorkflowKind, domain: string): WorkflowRecord | undefined {
    return this.data.workflows[key(kind, domain)];
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  /** A registration exists unless its registration workflow failed. */
  #visible(domain: string, account: AccountRegistrar = this.data): RegistrationRecord | undefined {
    const rec = account.registrations[domain];
    if (!rec) return undefined;
    const wf = account.workflows[key("registration", domain)];
    return wf && stateAt(wf, this.now()) === "failed" ? undefined : rec;
  }

  /** Held by another account: for this one it is simply unavailable at the registry. */
  #registeredElsewhere(domain: string): boolean {
    const { accounts } = this.#root;
    return Object.keys(accounts).some(
      (id) => id !== this.accountId && this.#visible(domain, accounts[id]) !== undefined,
    );
  }

  isRegistered(domain: string): boolean {
    return this.#visible(domain) !== undefined;
  }

  count(): number {
    return Object.keys(this.data.registrations).filter((d) => this.isRegistered(d)).length;
  }

  view(rec: RegistrationRecord): RegistrationView {
    const now = this.now();
    const upd = this.workflowOf("update", rec.domain_name);
    const auto_renew =
      upd?.change && !upd.applied && stateAt(upd, now) === "succeeded"
        ? upd.change.auto_renew
        : rec.auto_renew;
    const reg = this.workflowOf("registration", rec.domain_name);
    const pending = reg !== undefined && stateAt(reg, now) !== "succeeded";
    let status: RegistrationStatus = pending ? "registration_pending" : "active";
    let expires: number | null = null;
    if (!pending) {
      expires = addYears(rec.created_at, rec.years);
      // An auto-renewing domain renews a year at a time; one that does not, expires.
      if (auto_renew) while (expires <= now) expires = addYears(expires, 1);
      else if (expires <= now) status = "expired";
    }
    return {
      record: rec,
      status: rec.status_override ?? status,
      auto_renew,
      expires_at: rec.expires_at_override !== undefined ? rec.expires_at_override : expires,
    };
  }

  /** Visible registrations, oldest first. */
  list(): RegistrationView[] {
    return Object.values(this.data.registrations)
      .filter((r) => this.isRegistered(r.domain_name))
      .sort((a, b) => a.seq - b.seq)
      .map((r) => this.view(r));
  }

  get(domainName: string): RegistrationView {
    const domain = normalizeDomainName(domainName);
    const rec = this.#visible(domain);
    if (!rec) throw registrarNotFound(`registration for ${domain}`);
    return this.view(rec);
  }

  workflow(kind: WorkflowKind, domainName: string): WorkflowRecord {
    const domain = normalizeDomainName(domainName);
    const wf = this.workflowOf(kind, domain);
    if (!wf) throw registrarNotFound(`${kind} workflow for ${domain}`);
    return wf;
  }

  #availability(name: string, authoritative: boolean): DomainAvailability {
    return availability(name, {
      registered: (n) => this.isRegistered(n) || this.#registeredElsewhere(n),
      extraTaken: this.data.taken,
      authoritative,
    });
  }

  search(q: string, extensions: readonly string[] | undefined, limit: number): DomainAvailability[] {
    return searchCandidates(q, extensions)
      .filter(isDomainName)
      .slice(0, limit)
      .map((n) => this.#availability(n, false));
  }

  /** Malformed names are left out, as the spec allows; duplicates are answered once. */
  check(domains: readonly string[]): DomainAvailability[] {
    const names = [...new Set(domains.map(normalizeDomainName))].filter(isDomainName);
    return names.map((n) => this.#availability(n, true));
  }

  // -------------------------------------------------------------------------------------------
  // Writing

  #scenario(kind: WorkflowKind, domain: string, fallback: Scenario): Scenario {
    const k = key(kind, domain);
    const armed = this.data.armed[k];
    if (armed) delete this.data.armed[k];
    return armed ?? fallback;
  }

  #startWorkflow(
    kind: WorkflowKind,
    domain: string,
    scenario: Scenario,
    processingMs: number,
    respondAsync: boolean,
  ): { workflow: WorkflowRecord; synchronous: boolean } {
    const now = this.now();
    const workflow: WorkflowRecord = {
      kind,
      domain_name: domain,
      created_at: now,
      steps: plan(scenario, now, processingMs),
      processing_ms: processingMs,
      ...(scenario === "action_required" ? { action: DEFAULT_ACTION } : {}),
      ...(scenario === "failed" ? { error: defaultError(kind, domain) } : {}),
    };
    const done = completesAt(workflow);
    const synchronous = !respondAsync && done !== undefined && done - now <= SYNC_WINDOW_MS;
    if (synchronous) collapse(workflow, now);
    this.data.workflows[key(kind, domain)] = workflow;
    return { workflow, synchronous };
  }

  create(
    input: CreateInput,
    o: { respondAsync: boolean },
  ): { workflow: WorkflowRecord; synchronous: boolean } {
    const domain = input.domain_name;
    if (this.isRegistered(domain)) {
      throw registrarConflict(
        REGISTRAR_CODES.alreadyRegistered,
        `domain_name: ${domain} is already registered in this account (a domain can be registered once)`,
      );
    }
    const entry = this.#availability(domain, true);
    if (entry.reason === "domain_premium") {
      throw unprocessable(
        REGISTRAR_CODES.premiumNotSupported,
        `domain_name: ${domain} is a premium domain; premium registration is not supported by this API`,
      );
    }
    const info = extensionInfo(domain);
    if (!entry.registrable || !info) {
      const reason = entry.reason ?? UNSUPPORTED[extensionOf(domain)] ?? "extension_not_supported";
      throw unprocessable(
        REGISTRAR_CODES.notRegistrable,
        `domain_name: ${domain} cannot be registered (${reason})`,
      );
    }
    if (this.count() >= MAX_DOMAINS_PER_ACCOUNT) {
      throw unprocessable(
        REGISTRAR_CODES.domainLimit,
        `account holds ${this.count()} domains: at most ${MAX_DOMAINS_PER_ACCOUNT} domains per account`,
      );
    }
    const years = input.years ?? info.min_years;
    if (years < info.min_years) {
      throw invalid(`years: must be at least ${info.min_years} for .${extensionOf(domain)}`);
    }
    const now = this.now();
    this.data.registrations[domain] = {
      seq: this.store.next("registrar.registration"),
      domain_name: domain,
      years,
      created_at: now,
      updated_at: now,
      auto_renew: input.auto_renew ?? false,
      privacy_mode: input.privacy_mode ?? "redaction",
      locked: true,
      ...(input.contacts ? { contacts: input.contacts } : {}),
    };
    delete this.data.workflows[key("update", domain)];
    const scenario = this.#scenario("registration", domain, scenarioFromName(domain));
    return this.#startWorkflow("registration", domain, scenario, info.processing_ms, o.respondAsync);
  }

  /** Folds a succeeded update into the stored registration, so the next one starts from it. */
  #settle(domain: string): void {
    const rec = this.data.registrations[domain];
    const upd = this.workflowOf("update", domain);
    if (!rec || !upd?.change || upd.applied || stateAt(upd, this.now()) !== "succeeded") return;
    rec.auto_renew = upd.change.auto_renew;
    rec.updated_at = Math.max(rec.updated_at, upd.steps.at(-1)?.at ?? rec.updated_at);
    upd.applied = true;
  }

  update(
    domainName: string,
    change: { auto_renew: boolean },
    o: { respondAsync: boolean },
  ): { workflow: WorkflowRecord; synchronous: boolean } {
    const { record } = this.get(domainName);
    const domain = record.domain_name;
    const now = this.now();
    const reg = this.workflowOf("registration", domain);
    if (reg && stateAt(reg, now) !== "succeeded") {
      throw registrarConflict(
        REGISTRAR_CODES.registrationPending,
        `${domain}: the registration workflow has not succeeded yet (state ${stateAt(reg, now)}); update it afterwards`,
      );
    }
    const previous = this.workflowOf("update", domain);
    if (previous && !["succeeded", "failed"].includes(stateAt(previous, now))) {
      throw registrarConflict(
        REGISTRAR_CODES.workflowInProgress,
        `${domain}: an update workflow is in progress (state ${stateAt(previous, now)}); wait for it to complete`,
      );
    }
    this.#settle(domain);
    const started = this.#startWorkflow(
      "update",
      domain,
      this.#scenario("update", domain, "normal"),
      UPDATE_PROCESSING_MS,
      o.respondAsync,
    );
    started.workflow.change = { auto_renew: change.auto_renew };
    return started;
  }

  /** The deprecated PUT …/domains/{name}: applies at once, no workflow. */
  updateDomain(
    domainName: string,
    change: { auto_renew?: boolean; locked?: boolean; privacy?: boolean },
  ): RegistrationView {
    const { record } = this.get(domainName);
    this.#settle(record.domain_name);
    if (change.auto_renew !== undefined) record.auto_renew = change.auto_renew;
    if (change.locked !== undefined) record.locked = change.locked;
    if (change.privacy !== undefined) record.privacy_mode = change.privacy ? "redaction" : "off";
    record.updated_at = this.now();
    return this.view(record);
  }

  // -------------------------------------------------------------------------------------------
  // Control API (tests and users simulating the registry and out-of-band changes)

  /** Registers a domain at once, as if a registration had completed now (no availability check). */
  seed(input: CreateInput & { locked?: boolean | undefined }): RegistrationView {
    const domain = input.domain_name;
    if (this.isRegistered(domain)) {
      throw registrarConflict(
        REGISTRAR_CODES.alreadyRegistered,
        `domain_name: ${domain} is already registered`,
      );
    }
    const now = this.now();
    const rec: RegistrationRecord = {
      seq: this.store.next("registrar.registration"),
      domain_name: domain,
      years: input.years ?? extensionInfo(domain)?.min_years ?? 1,
      created_at: now,
      updated_at: now,
      auto_renew: input.auto_renew ?? false,
      privacy_mode: input.privacy_mode ?? "redaction",
      locked: input.locked ?? true,
      ...(input.contacts ? { contacts: input.contacts } : {}),
    };
    this.data.registrations[domain] = rec;
    this.data.workflows[key("registration", domain)] = {
      kind: "registration",
      domain_name: domain,
      created_at: now,
      steps: plan("normal", now, 0).map((s) => ({ state: s.state, at: now })),
      processing_ms: 0,
    };
    delete this.data.workflows[key("update", domain)];
    return this.view(rec);
  }

  outOfBand(
    domainName: string,
    patch: {
      auto_renew?: boolean | undefined;
      locked?: boolean | undefined;
      privacy_mode?: PrivacyMode | undefined;
      status?: RegistrationStatus | undefined;
      expires_at?: string | null | undefined;
    },
  ): RegistrationView {
    const { record } = this.get(domainName);
    this.#settle(record.domain_name);
    if (patch.auto_renew !== undefined) record.auto_renew = patch.auto_renew;
    if (patch.locked !== undefined) record.locked = patch.locked;
    if (patch.privacy_mode !== undefined) record.privacy_mode = patch.privacy_mode;
    if (patch.status !== undefined) record.status_override = patch.status;
    if (patch.expires_at !== undefined) {
      record.expires_at_override = patch.expires_at === null ? null : Date.parse(patch.expires_at);
    }
    record.updated_at = this.now();
    return this.view(record);
  }

  forceState(
    kind: WorkflowKind,
    domainName: string,
    state: WorkflowState,
    detail: { action?: string | undefined; error?: WorkflowError | undefined },
  ): WorkflowRecord {
    const wf = this.workflow(kind, domainName);
    force(wf, this.now(), state);
    if (state === "action_required") wf.action = detail.action ?? wf.action ?? DEFAULT_ACTION;
    else delete wf.action;
    if (state === "failed") wf.error = detail.error ?? wf.error ?? defaultError(kind, wf.domain_name);
    else delete wf.error;
    return wf;
  }

  /**
   * A move asked from the console: like forceState, but only where the workflow's rules allow it
   * (workflow.refusedMove); a refused move is a 409 naming the workflow and the rule.
   */
  move(kind: WorkflowKind, domainName: string, state: ConsoleMove): WorkflowRecord {
    const wf = this.workflow(kind, domainName);
    const why = refusedMove(stateAt(wf, this.now()), state);
    if (why) {
      throw registrarConflict(
        REGISTRAR_CODES.notApplicable,
        `state: ${kind} workflow for ${wf.domain_name} cannot move to ${state}: ${why}`,
      );
    }
    return this.forceState(kind, domainName, state, {});
  }

  /** Every workflow of the account, oldest first (registrations whose workflow failed included). */
  workflows(): WorkflowRecord[] {
    return Object.values(this.data.workflows).sort((a, b) => a.created_at - b.created_at);
  }

  /** The user did what `context.action` asked: the workflow resumes. */
  resolveAction(kind: WorkflowKind, domainName: string): WorkflowRecord {
    const wf = this.workflow(kind, domainName);
    const state = stateAt(wf, this.now());
    if (state !== "action_required") {
      throw registrarConflict(
        REGISTRAR_CODES.notApplicable,
        `${kind} workflow for ${wf.domain_name}: state is ${state}, only action_required can be resolved`,
      );
    }
    resume(wf, this.now());
    return wf;
  }

  arm(kind: WorkflowKind, domain: string, scenario: Scenario): void {
    this.data.armed[key(kind, domain)] = scenario;
  }

  markTaken(domain: string): void {
    if (!this.data.taken.includes(domain)) this.data.taken.push(domain);
  }

  /** The domain leaves the account (transferred out or deleted at the registry). */
  release(domainName: string): void {
    const domain = this.get(domainName).record.domain_name;
    delete this.data.registrations[domain];
    delete this.data.workflows[key("registration", domain)];
    delete this.data.workflows[key("update", domain)];
  }
}
