/**
 * DomainRegistration: a domain registered in the account (spec E). The id is the domain name, its
 * natural key: a domain is registered at most once.
 *
 * - create asks the authoritative check first and refuses a premium or non-registrable domain with
 *   the reason; with `maxCost` it prices the given `years` exactly (rule 3) and refuses a registration
 *   above the guard or in another currency. It then registers and waits for the workflow. At
 *   `action_required` it stops, records the resource (a partial create: id and outputs, with the
 *   action to take in `pendingAction`) and says what to do; the next `up` continues waiting. A failed
 *   workflow registered nothing and is reported with its code and message, never retried.
 * - A domain already registered in the account is never registered again: create fails and says how
 *   to adopt it (`importId`, which must equal `domainName`).
 * - `autoRenew` updates in place through the update workflow. `privacyMode` can only be set at
 *   registration: the API's PATCH changes auto_renew only, so a change later is refused with the
 *   reason. `years`, `contacts`, `contactExtensions`, `acknowledgements` and `maxCost` apply to the
 *   registration itself; changing them later changes nothing remote and shows no diff.
 * - Drift: read projects the live `autoRenew` and `privacyMode` onto the inputs and reports `status`,
 *   `locked` and `expiresAt` (and a pending action) as outputs.
 * - delete leaves the domain registered (the API has no delete) and says so.
 */
import * as pulumi from "@pulumi/pulumi";
import { DeadlineExceededError, NotFoundError } from "../../sdk/errors";
import {
  WorkflowFailedError,
  compareDecimal,
  registrationTotal,
  type Registration,
  type WaitOutcome,
  type WorkflowKind,
} from "../../sdk/registrar";
import {
  DecimalStringSchema,
  RegistrationCreateSchema,
  normalizeDomainName,
  type PrivacyMode,
  type RegistrationCreate,
  type RegistrationStatus,
} from "../../sdk/schemas/registrar";
import { PartialCreateError } from "../errors";
import { changedKeys, checkWith, isUnknown, snakeToCamel, toApi } from "../inputs";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface ContactInputs {
  address: string;
  city: string;
  state: string;
  organization: string;
  /** At most 20 characters. */
  phone: string;
  /** At most 20 characters. */
  zip: string;
  /** At most 30 characters. */
  country: string;
  /** At most 60 characters. */
  firstName: string;
  /** At most 60 characters. */
  lastName: string;
  /** At most 32 characters. */
  id?: string;
  address2?: string;
  /** At most 90 characters. */
  email?: string;
  fax?: string;
}

export interface ContactsInputs {
  registrant?: ContactInputs;
  admin?: ContactInputs;
  technical?: ContactInputs;
  billing?: ContactInputs;
}

/** The most the registration may cost for `years`, in a currency (ISO 4217). */
export interface MaxCostInputs {
  /** A decimal string such as "25.00"; compared exactly, never as a float. */
  amount: string;
  currency: string;
}

export interface DomainRegistrationInputs {
  accountId?: string;
  importId?: string;
  /** Fully qualified, normalized to lower case and punycode. Changing it replaces. */
  domainName: string;
  /** 1 to 10; the service's default is the extension's minimum. Needed with `maxCost`. */
  years?: number;
  /** Default false. */
  autoRenew: boolean;
  /** Default "redaction"; settable at registration only. */
  privacyMode: PrivacyMode;
  contacts?: ContactsInputs;
  contactExtensions?: Record<string, unknown>;
  acknowledgements?: Record<string, unknown>;
  maxCost?: MaxCostInputs;
}

/** The price the check quoted when the domain was registered. */
export interface PriceOutputs {
  currency: string;
  registrationCost: string;
  renewalCost: string;
  years: number;
  /** registrationCost + (years − 1) × renewalCost. */
  total: string;
}

export interface DomainRegistrationOutputs extends DomainRegistrationInputs {
  status: RegistrationStatus;
  locked: boolean;
  createdAt: string;
  /** Absent while the registration is pending. */
  expiresAt?: string;
  /** What the user must do before the registration can go on (workflow state action_required). */
  pendingAction?: string;
  price?: PriceOutputs;
}

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export interface DomainRegistrationArgs
  extends
    CommonArgs,
    Inputs<Omit<DomainRegistrationInputs, "accountId" | "importId" | "autoRenew" | "privacyMode">> {
  autoRenew?: pulumi.Input<boolean>;
  privacyMode?: pulumi.Input<PrivacyMode>;
}

/** Inputs whose change replaces the resource: which domain, in which account. */
export const REPLACE_ON_CHANGE = ["accountId", "domainName"] as const;
/** Inputs applied in place after registration. */
export const UPDATABLE = ["autoRenew", "privacyMode"] as const;
/** Inputs that only shape the registration itself (or guard it); later changes do nothing remote. */
export const CREATE_ONLY = [
  "importId",
  "years",
  "contacts",
  "contactExtensions",
  "acknowledgements",
  "maxCost",
] as const;

export const DOMAIN_REGISTRATION_DEFAULTS = { autoRenew: false, privacyMode: "redaction" } as const;

const OUTPUT_NAMES = ["status", "locked", "createdAt", "expiresAt", "pendingAction", "price"];

/** How long create and update wait for a workflow, and how they poll. Tests inject a manual clock. */
export const registrationWaits: {
  deadlineMs: number;
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
} = { deadlineMs: 15 * 60_000, pollIntervalMs: 1_000, maxPollIntervalMs: 15_000 };

// ---- pure planning ----

const OPAQUE = ["contactExtensions", "acknowledgements"];

function inputPath(apiPath: string): string {
  const [head, ...rest] = apiPath.split(".");
  // Keys inside the free-form maps are the user's own.
  if (head === "contact_extensions" || head === "acknowledgements")
    return [snakeToCamel(head), ...rest].join(".");
  return apiPath
    .split(".")
    .map((s) => snakeToCamel(s))
    .join(".");
}

/** The create body for some inputs, in the API's naming. */
export function registrationBody(inputs: DomainRegistrationInputs): RegistrationCreate {
  const fields: Record<string, unknown> = {
    domainName: inputs.domainName,
    years: inputs.years,
    autoRenew: inputs.autoRenew,
    privacyMode: inputs.privacyMode,
    contacts: inputs.contacts,
    contactExtensions: inputs.contactExtensions,
    acknowledgements: inputs.acknowledgements,
  };
  return toApi(fields, OPAQUE) as RegistrationCreate;
}

/** Check failures of raw inputs, each naming the input and the rule. */
export function checkInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { maxCost, accountId, importId, ...rest } = news;
  for (const f of checkWith(RegistrationCreateSchema, toApi(rest, OPAQUE), inputPath)) failures.push(f);
  if (
    accountId !== undefined &&
    !isUnknown(accountId) &&
    (typeof accountId !== "string" || accountId.length > 32)
  ) {
    failures.push({ property: "accountId", reason: "accountId: must be a string of at most 32 characters" });
  }
  if (maxCost !== undefined && !isUnknown(maxCost)) {
    const m = (maxCost ?? {}) as Record<string, unknown>;
    if (!isUnknown(m.amount) && !DecimalStringSchema.safeParse(m.amount).success) {
      failures.push({
        property: "maxCost.amount",
        reason: 'maxCost.amount: must be a non-negative decimal string such as "25.00"',
      });
    }
    if (!isUnknown(m.currency) && !(typeof m.currency === "string" && /^[A-Z]{3}$/.test(m.currency))) {
      failures.push({
        property: "maxCost.currency",
        reason: "maxCost.currency: must be a three-letter ISO 4217 code such as USD",
      });
    }
    if (news.years === undefined) {
      failures.push({
        property: "years",
        reason:
          "years: is required with maxCost (the guard prices a number of years; the service's default depends on the extension)",
      });
    }
  }
  const name = news.domainName;
  if (importId !== undefined && !isUnknown(importId) && typeof name === "string" && !isUnknown(name)) {
    if (typeof importId !== "string" || normalizeDomainName(importId) !== normalizeDomainName(name)) {
      failures.push({
        property: "importId",
        reason: "importId: must equal domainName (a registration's id is its domain name)",
      });
    }
  }
  return failures;
}

/** Inputs with defaults filled and the domain name in its canonical form, so stored inputs are stable. */
export function withDefaults(news: Record<string, unknown>): DomainRegistrationInputs {
  const out: Record<string, unknown> = { ...news };
  for (const [k, v] of Object.entries(DOMAIN_REGISTRATION_DEFAULTS)) if (out[k] === undefined) out[k] = v;
  if (typeof out.domainName === "string" && !isUnknown(out.domainName))
    out.domainName = normalizeDomainName(out.domainName);
  if (typeof out.importId === "string" && !isUnknown(out.importId))
    out.importId = normalizeDomainName(out.importId);
  return out as unknown as DomainRegistrationInputs;
}

/** The inputs part of some outputs (what the program manages). */
export function inputPart(o: DomainRegistrationOutputs | DomainRegistrationInputs): DomainRegistrationInputs {
  const out: Record<string, unknown> = {};
  const keys = [
    "accountId",
    "importId",
    "domainName",
    "years",
    "autoRenew",
    "privacyMode",
    "contacts",
    "contactExtensions",
    "acknowledgements",
    "maxCost",
  ];
  for (const k of keys) {
    const v = (o as unknown as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as unknown as DomainRegistrationInputs;
}

export function planDiff(
  olds: DomainRegistrationOutputs,
  news: DomainRegistrationInputs,
): { replaces: string[]; changes: string[] } {
  const changed = changedKeys(inputPart(olds), inputPart(news), CREATE_ONLY);
  return {
    replaces: changed.filter((k) => (REPLACE_ON_CHANGE as readonly string[]).includes(k)),
    changes: changed,
  };
}

/** Why the guard refuses, or undefined when the price is within it. */
export function priceGuard(
  price: PriceOutputs,
  maxCost: MaxCostInputs,
  domainName: string,
): string | undefined {
  if (price.currency !== maxCost.currency) {
    return `maxCost: ${domainName} is priced in ${price.currency}, not ${maxCost.currency}; refusing to register`;
  }
  if (compareDecimal(price.total, maxCost.amount) > 0) {
    return (
      `maxCost: registering ${domainName} for ${price.years} year(s) costs ${price.total} ${price.currency} ` +
      `(${price.registrationCost} the first year, ${price.renewalCost} each further year), above maxCost ${maxCost.amount} ${maxCost.currency}`
    );
  }
  return undefined;
}

export function outputsFrom(
  inputs: DomainRegistrationInputs,
  live: Registration,
  extra: { price?: PriceOutputs | undefined; pendingAction?: string | undefined } = {},
): DomainRegistrationOutputs {
  return {
    ...inputPart(inputs),
    autoRenew: live.auto_renew,
    privacyMode: live.privacy_mode,
    status: live.status,
    locked: live.locked,
    createdAt: live.created_at,
    ...(live.expires_at ? { expiresAt: live.expires_at } : {}),
    ...(extra.pendingAction !== undefined ? { pendingAction: extra.pendingAction } : {}),
    ...(extra.price ? { price: extra.price } : {}),
  };
}

// ---- the handler ----

interface Ref {
  accountId: string;
  domain_name: string;
}

type Pricing = Pick<PriceOutputs, "currency" | "registrationCost" | "renewalCost">;

/** The authoritative check: refuses premium and non-registrable domains with the reason. */
async function checkDomain(ref: Ref, ctx: HandlerContext): Promise<Pricing | undefined> {
  const { domains } = await ctx.api.registrar.check({ accountId: ref.accountId, domains: [ref.domain_name] });
  const entry = domains.find((d) => normalizeDomainName(d.name) === ref.domain_name);
  const who = `domainName: ${ref.domain_name}`;
  if (!entry) throw new Error(`${who}: the check did not answer for this name; it cannot be registered`);
  if (entry.tier === "premium" || entry.reason === "domain_premium") {
    throw new Error(
      `${who}: cannot be registered (domain_premium): premium registration is not supported by this API`,
    );
  }
  if (!entry.registrable)
    throw new Error(`${who}: cannot be registered (${entry.reason ?? "domain_unavailable"})`);
  if (!entry.pricing) return undefined;
  const p = entry.pricing;
  return { currency: p.currency, registrationCost: p.registration_cost, renewalCost: p.renewal_cost };
}

/** The exact price of `years` (rule 3). */
export function priceFor(pricing: Pricing, years: number): PriceOutputs {
  return {
    ...pricing,
    years,
    total: registrationTotal(pricing.registrationCost, pricing.renewalCost, years),
  };
}

/** Whole years between creation and expiry (the term the service chose when `years` was left out). */
export function termOf(live: Registration): number | undefined {
  if (!live.expires_at) return undefined;
  const from = new Date(live.created_at);
  const to = new Date(live.expires_at);
  const years = to.getUTCFullYear() - from.getUTCFullYear();
  return years >= 1 && years <= 10 ? years : undefined;
}

function waitOptions(accountId: string) {
  return {
    accountId,
    deadlineMs: registrationWaits.deadlineMs,
    pollIntervalMs: registrationWaits.pollIntervalMs,
    maxPollIntervalMs: registrationWaits.maxPollIntervalMs,
    ...(registrationWaits.sleep ? { sleep: registrationWaits.sleep } : {}),
    ...(registrationWaits.now ? { now: registrationWaits.now } : {}),
  };
}

/**
 * Waits for a workflow. Succeeded → the live registration. Stuck (action_required, or still running
 * at the deadline) → a partial create that records the resource with what to do. Failed → an error
 * with the workflow's code and message (never retried).
 */
async function awaitWorkflow(
  kind: WorkflowKind,
  ref: Ref,
  inputs: DomainRegistrationInputs,
  ctx: HandlerContext,
  price: PriceOutputs | undefined,
): Promise<Registration> {
  let outcome: WaitOutcome;
  try {
    outcome = await ctx.api.registrar.waitForWorkflow(ref.domain_name, kind, waitOptions(ref.accountId));
  } catch (e) {
    if (e instanceof WorkflowFailedError) {
      const what = kind === "registration" ? "nothing was registered" : "auto_renew was not changed";
      throw new Error(
        `${kind} workflow of ${ref.domain_name} failed (${e.error.code}): ${e.error.message.replace(/\.$/, "")}; ${what}. ` +
          "Review it before running up again (it is not retried automatically).",
        { cause: e },
      );
    }
    if (e instanceof DeadlineExceededError) {
      const live = await ctx.api.registrar.getRegistration(ref);
      throw new PartialCreateError(ref.domain_name, outputsFrom(inputs, live, { price }), [
        `${kind} workflow of ${ref.domain_name} is still running after ${registrationWaits.deadlineMs} ms (${e.message}); run up again to keep waiting`,
      ]);
    }
    throw e;
  }
  if (outcome.state === "action_required") {
    const live = await ctx.api.registrar.getRegistration(ref);
    throw new PartialCreateError(
      ref.domain_name,
      outputsFrom(inputs, live, { price, pendingAction: outcome.action }),
      [
        `${kind} workflow of ${ref.domain_name} needs your action: ${outcome.action} Then run up again to continue.`,
      ],
    );
  }
  return outcome.registration;
}

/** Brings the registration to a settled state (its registration workflow succeeded). */
async function settled(
  ref: Ref,
  inputs: DomainRegistrationInputs,
  ctx: HandlerContext,
  price?: PriceOutputs,
): Promise<Registration> {
  const live = await ctx.api.registrar.getRegistration(ref);
  if (live.status !== "registration_pending") return live;
  return awaitWorkflow("registration", ref, inputs, ctx, price);
}

/** Applies autoRenew through the update workflow; refuses a privacyMode the API cannot change. */
async function reconcile(
  ref: Ref,
  live: Registration,
  inputs: DomainRegistrationInputs,
  ctx: HandlerContext,
  price?: PriceOutputs,
): Promise<Registration> {
  if (inputs.privacyMode !== live.privacy_mode) {
    throw new Error(
      `privacyMode: ${ref.domain_name} has privacy_mode "${live.privacy_mode}"; it cannot be changed to "${inputs.privacyMode}" ` +
        `through this API (a registration's PATCH changes auto_renew only). Change it in the dashboard, or set privacyMode: "${live.privacy_mode}".`,
    );
  }
  if (inputs.autoRenew === live.auto_renew) return live;
  const workflow = await ctx.api.registrar.updateRegistration({ ...ref, auto_renew: inputs.autoRenew });
  if (workflow.state === "succeeded") return ctx.api.registrar.getRegistration(ref);
  return awaitWorkflow("update", ref, inputs, ctx, price);
}

async function adopt(
  inputs: DomainRegistrationInputs,
  ref: Ref,
  ctx: HandlerContext,
): Promise<DomainRegistrationOutputs> {
  if (!(await ctx.api.registrar.findRegistration(ref))) {
    throw new Error(
      `importId: ${ref.domain_name} is not registered in account ${ref.accountId}; nothing to adopt`,
    );
  }
  const live = await reconcile(ref, await settled(ref, inputs, ctx), inputs, ctx);
  return outputsFrom(inputs, live);
}

export const handler: ResourceHandler<DomainRegistrationInputs, DomainRegistrationOutputs> = {
  driftOutputs: ["status", "locked", "expiresAt"],
  async check(_olds, news) {
    const failures = checkInputs(news);
    if (failures.length) return { failures };
    return { inputs: withDefaults(news) };
  },

  async diff(_id, olds, news) {
    const { replaces, changes } = planDiff(olds, news);
    return { changes: changes.length > 0, replaces, deleteBeforeReplace: false };
  },

  async create(inputs, ctx) {
    const ref: Ref = { accountId: ctx.accountId(inputs.accountId), domain_name: inputs.domainName };
    if (inputs.importId !== undefined) return { id: ref.domain_name, outs: await adopt(inputs, ref, ctx) };
    if (await ctx.api.registrar.findRegistration(ref)) {
      throw new Error(
        `domainName: ${ref.domain_name} is already registered in account ${ref.accountId}; a domain is registered once. ` +
          `Set importId: "${ref.domain_name}" to adopt it.`,
      );
    }
    const pricing = await checkDomain(ref, ctx);
    const asked = pricing && inputs.years !== undefined ? priceFor(pricing, inputs.years) : undefined;
    if (inputs.maxCost) {
      if (!asked)
        throw new Error(`maxCost: the check gave no price for ${ref.domain_name}; refusing to register`);
      const refusal = priceGuard(asked, inputs.maxCost, ref.domain_name);
      if (refusal) throw new Error(refusal);
    }
    const created = await ctx.api.registrar.createRegistration({
      accountId: ref.accountId,
      ...registrationBody(inputs),
    });
    const live =
      created.workflow.state === "succeeded" && created.workflow.context?.registration
        ? created.workflow.context.registration
        : await awaitWorkflow("registration", ref, inputs, ctx, asked);
    const term = inputs.years ?? termOf(live);
    const price = asked ?? (pricing && term !== undefined ? priceFor(pricing, term) : undefined);
    return { id: ref.domain_name, outs: outputsFrom(inputs, live, { price }) };
  },

  async read(id, props, ctx) {
    const ref: Ref = { accountId: ctx.accountId(props.accountId), domain_name: id };
    let live: Registration;
    try {
      live = await ctx.api.registrar.getRegistration(ref);
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
    let pendingAction: string | undefined;
    if (live.status === "registration_pending") {
      const w = await ctx.api.registrar.registrationStatus(ref);
      if (w.state === "action_required") pendingAction = w.context?.action;
    }
    const outs = outputsFrom(inputPart(props), live, { price: props.price, pendingAction });
    return {
      id,
      props: outs,
      inputs: { ...inputPart(props), autoRenew: live.auto_renew, privacyMode: live.privacy_mode },
    };
  },

  async update(id, olds, news, ctx) {
    const ref: Ref = { accountId: ctx.accountId(news.accountId), domain_name: id };
    const live = await reconcile(ref, await settled(ref, news, ctx, olds.price), news, ctx, olds.price);
    return { outs: outputsFrom(news, live, { price: olds.price }) };
  },

  async delete(id, props, ctx) {
    const until = props.expiresAt ? ` until ${props.expiresAt}` : "";
    ctx.log(
      `DomainRegistration: ${id} stays registered${until} (the API cannot delete a registration); ` +
        `it was removed from the stack only${props.autoRenew ? ", and it still auto-renews" : ""}.`,
    );
  },
};

// ---- the resource class ----

export class DomainRegistration extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly domainName: pulumi.Output<string>;
  declare readonly years: pulumi.Output<number | undefined>;
  declare readonly autoRenew: pulumi.Output<boolean>;
  declare readonly privacyMode: pulumi.Output<PrivacyMode>;
  declare readonly contacts: pulumi.Output<ContactsInputs | undefined>;
  declare readonly maxCost: pulumi.Output<MaxCostInputs | undefined>;
  declare readonly status: pulumi.Output<RegistrationStatus>;
  declare readonly locked: pulumi.Output<boolean>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly expiresAt: pulumi.Output<string | undefined>;
  declare readonly pendingAction: pulumi.Output<string | undefined>;
  declare readonly price: pulumi.Output<PriceOutputs | undefined>;

  constructor(name: string, args: DomainRegistrationArgs, opts?: pulumi.CustomResourceOptions) {
    super("DomainRegistration", name, registerArgs(args, OUTPUT_NAMES), opts);
  }
}
