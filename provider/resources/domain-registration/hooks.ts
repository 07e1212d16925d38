/**
 * What DomainRegistration's description cannot say: a supported extension at check (preview), the
 * authoritative check and the price guard before registering, waiting for the registration and
 * update workflows (stopping at action_required with a partial create), privacyMode and locked
 * through the deprecated domain PUT, a locked left out meaning "not managed", the price kept from
 * the registration onwards, stored contacts of the earlier shape brought to today's, and a delete
 * that leaves the domain registered.
 */
import { ApiError, DeadlineExceededError } from "../../../sdk/errors";
import {
  WorkflowFailedError,
  compareDecimal,
  registrationTotal,
  type Registration,
  type WaitOutcome,
  type WorkflowKind,
} from "../../../sdk/registrar";
import {
  DEPRECATED_DOMAINS_SUNSET,
  RegistrationCreateSchema,
  normalizeDomainName,
  type DomainUpdate,
} from "../../../sdk/schemas/registrar";
import { fromWire, toWire, type InputsOf, type StateOf } from "../../core/define";
import {
  orGone,
  type Remote,
  type Checks,
  type NaturalKey,
  type Reading,
  type History,
  type InputIssue,
  type Known,
} from "../../core/pipeline";
import { PartialCreateError, ResourceInputError, inputError } from "../../errors";
import { DEFAULT_WAITS, type HandlerContext } from "../../types";
import { supportedExtensions, unsupportedExtension } from "./extensions";
import { upgradeState } from "./upgrade";
import { DomainRegistrationSpec, PriceSchema } from "./spec";

type Spec = typeof DomainRegistrationSpec;
export type DomainRegistrationInputs = InputsOf<Spec>;
type State = StateOf<Spec>;
type MaxCost = NonNullable<DomainRegistrationInputs["maxCost"]>;
export type Price = NonNullable<State["price"]>;
type Pricing = Pick<Price, "currency" | "registrationCost" | "renewalCost">;

/** A live registration, with what only this resource knows of it: its price and a pending action. */
export type Live = Registration & {
  readonly price?: Price;
  readonly pendingAction?: string;
  /** Whether the stored state manages the lock (read knows it from the state; a look-up does not). */
  readonly lockManaged?: boolean;
};

/** The sdk's ids of one registration. */
interface Ref {
  accountId: string;
  domainName: string;
}

const refOf = (domainName: string, i: { accountId?: string }, ctx: HandlerContext): Ref => ({
  accountId: ctx.accountId(i.accountId),
  domainName,
});

// ---- pure rules ----

export function rules(i: DomainRegistrationInputs, known: Known): InputIssue[] {
  const issues: InputIssue[] = [];
  if (i.maxCost !== undefined && known("maxCost") && i.years === undefined)
    issues.push({
      field: "years",
      rule: "is required with maxCost (the guard prices a number of years; the service's default depends on the extension)",
    });
  if (
    i.importId !== undefined &&
    known("importId") &&
    known("domainName") &&
    normalizeDomainName(i.importId) !== normalizeDomainName(i.domainName)
  )
    issues.push({
      field: "importId",
      rule: "must equal domainName (a registration's id is its domain name)",
    });
  return issues;
}

/** The exact price of `years` (rule 3). */
export function priceFor(pricing: Pricing, years: number): Price {
  return {
    ...pricing,
    years,
    total: registrationTotal(pricing.registrationCost, pricing.renewalCost, years),
  };
}

/** Why the guard refuses, or undefined when the price is within it. Compared exactly as decimals. */
export function priceGuard(price: Price, maxCost: MaxCost, domainName: string): InputIssue | undefined {
  if (price.currency !== maxCost.currency)
    return {
      field: "maxCost",
      rule: `${domainName} is priced in ${price.currency}, not ${maxCost.currency}; refusing to register`,
    };
  if (compareDecimal(price.total, maxCost.amount) > 0)
    return {
      field: "maxCost",
      rule:
        `registering ${domainName} for ${price.years} year(s) costs ${price.total} ${price.currency} ` +
        `(${price.registrationCost} the first year, ${price.renewalCost} each further year), above maxCost ${maxCost.amount} ${maxCost.currency}`,
    };
  return undefined;
}

/** Whole years between creation and expiry (the term the service chose when `years` was left out). */
export function termOf(live: Registration): number | undefined {
  if (!live.expires_at) return undefined;
  const years = new Date(live.expires_at).getUTCFullYear() - new Date(live.created_at).getUTCFullYear();
  return years >= 1 && years <= 10 ? years : undefined;
}

/**
 * The outputs the table cannot map: expiry (null on the wire while pending), action and price; the
 * live lock, reported whether or not the program manages it, and whether it does.
 */
export function outputs(live: Live, inputs: Pick<DomainRegistrationInputs, "locked">): Partial<State> {
  return {
    locked: live.locked,
    lockManaged: inputs.locked !== undefined,
    ...(live.expires_at ? { expiresAt: live.expires_at } : {}),
    ...(live.pendingAction !== undefined ? { pendingAction: live.pendingAction } : {}),
    ...(live.price ? { price: live.price } : {}),
  };
}

/**
 * The deprecated domain PUT's body for what differs from the live registration, or undefined. Its
 * `privacy` is WHOIS privacy on or off: `redaction` is on, `off` is off. An unset `locked` is not
 * managed, so never sent.
 */
export function domainChanges(live: Registration, i: DomainRegistrationInputs): DomainUpdate | undefined {
  const body: DomainUpdate = {
    ...(i.locked !== undefined && i.locked !== live.locked ? { locked: i.locked } : {}),
    ...(i.privacyMode !== live.privacy_mode ? { privacy: i.privacyMode === "redaction" } : {}),
  };
  return Object.keys(body).length > 0 ? body : undefined;
}

/**
 * The inputs the create body takes: those of the contract's create body. The others (`locked`) are
 * applied afterwards, where they differ.
 */
const CREATE_INPUTS = Object.entries(DomainRegistrationSpec.fields)
  .filter(
    ([, f]) =>
      f.role === "input" && f.wire !== undefined && Object.hasOwn(RegistrationCreateSchema.shape, f.wire),
  )
  .map(([name]) => name);

// ---- one sdk call each ----

/**
 * The check's "registered, reserved or otherwise unavailable": it may be this resource's own
 * registration, made by an earlier attempt whose answer was lost, so the pipeline looks it up.
 */
export class DomainUnavailableError extends ResourceInputError {
  constructor(rule: string) {
    super("domainName", rule);
    this.name = "DomainUnavailableError";
  }
}

/**
 * A create refused in a way that may mean the domain is registered already: the check's
 * `domain_unavailable`, or a 4xx of the registration itself (the emulator's 409; the contract lists
 * 201/202/4XX). The look-up then tells; with nothing registered the refusal stands as it was.
 */
export const refusedAsHeld = (err: unknown): boolean =>
  err instanceof DomainUnavailableError || (err instanceof ApiError && err.status >= 400 && err.status < 500);

/** The authoritative check: refuses premium and non-registrable domains with the reason. */
async function checkDomain(ref: Ref, ctx: HandlerContext): Promise<Pricing | undefined> {
  const { domains } = await ctx.api.registrar.discovery.check(
    { accountId: ref.accountId },
    { domains: [ref.domainName] },
  );
  const entry = domains.find((d) => normalizeDomainName(d.name) === ref.domainName);
  const name = ref.domainName;
  if (!entry)
    throw inputError(
      "domainName",
      `${name}: the check did not answer for this name; it cannot be registered`,
    );
  if (entry.tier === "premium" || entry.reason === "domain_premium")
    throw inputError(
      "domainName",
      `${name}: cannot be registered (domain_premium): premium registration is not supported by this API`,
    );
  if (!entry.registrable) {
    const reason = entry.reason ?? "domain_unavailable";
    const rule = `${name}: cannot be registered (${reason})`;
    throw reason === "domain_unavailable" ? new DomainUnavailableError(rule) : inputError("domainName", rule);
  }
  const p = entry.pricing;
  return p && { currency: p.currency, registrationCost: p.registration_cost, renewalCost: p.renewal_cost };
}

/** What the engine records of a registration that is made but not finished. */
function unfinished(i: DomainRegistrationInputs, live: Live, reason: string): PartialCreateError {
  const state = { ...i, ...fromWire(DomainRegistrationSpec, live, "output"), ...outputs(live, i) };
  return new PartialCreateError(live.domain_name, state, [reason]);
}

/**
 * Waits for a workflow on the session's waits. Succeeded → the live registration. Stuck
 * (action_required, or still running at the deadline) → a partial create that records the resource
 * with what to do. Failed → an error with the workflow's code and message (never retried).
 */
async function awaitWorkflow(
  kind: WorkflowKind,
  ref: Ref,
  i: DomainRegistrationInputs,
  ctx: HandlerContext,
  price: Price | undefined,
): Promise<Registration> {
  const waits = ctx.waits ?? DEFAULT_WAITS;
  const name = ref.domainName;
  let outcome: WaitOutcome;
  try {
    const workflow =
      kind === "registration" ? ctx.api.registrar.registrationWorkflow : ctx.api.registrar.updateWorkflow;
    outcome = await workflow.wait(ref, waits);
  } catch (e) {
    if (e instanceof WorkflowFailedError) {
      const what = kind === "registration" ? "nothing was registered" : "auto_renew was not changed";
      // Not bad input: the service refused the registration; the user decides what to change.
      throw new Error(
        `${kind} workflow of ${name} failed (${e.error.code}): ${e.error.message.replace(/\.$/, "")}; ${what}. ` +
          "Review it before running up again (it is not retried automatically).",
        { cause: e },
      );
    }
    if (!(e instanceof DeadlineExceededError)) throw e;
    const live = { ...(await ctx.api.registrar.registrations.get(ref)), ...(price ? { price } : {}) };
    throw unfinished(
      i,
      live,
      `${kind} workflow of ${name} is still running after ${waits.deadlineMs} ms (${e.message}); run up again to keep waiting`,
    );
  }
  if (outcome.state === "action_required") {
    const live = await ctx.api.registrar.registrations.get(ref);
    throw unfinished(
      i,
      { ...live, pendingAction: outcome.action, ...(price ? { price } : {}) },
      `${kind} workflow of ${name} needs your action: ${outcome.action} Then run up again to continue.`,
    );
  }
  return outcome.registration;
}

/** The registration once its registration workflow succeeded (waiting while it is pending). */
async function settled(
  ref: Ref,
  i: DomainRegistrationInputs,
  ctx: HandlerContext,
  price: Price | undefined,
): Promise<Registration> {
  const live = await ctx.api.registrar.registrations.get(ref);
  if (live.status !== "registration_pending") return live;
  return awaitWorkflow("registration", ref, i, ctx, price);
}

/**
 * locked and privacy through the deprecated domain PUT, the only operation that changes them. Past
 * its end of life the service may no longer answer it: that is said naming the field, with what to
 * do instead.
 */
async function putDomain(
  ref: Ref,
  live: Registration,
  body: DomainUpdate,
  ctx: HandlerContext,
): Promise<void> {
  try {
    await ctx.api.registrar.domains.update(ref, body);
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 410)) throw e;
    const [field, keep] =
      body.locked !== undefined
        ? ["locked", `leave locked unset`]
        : ["privacyMode", `set privacyMode: "${live.privacy_mode}"`];
    throw inputError(
      field,
      `${ref.domainName}: the service no longer answers the deprecated registrar/domains update (HTTP ${e.status}; ` +
        `its end of life was ${DEPRECATED_DOMAINS_SUNSET}), the only operation that changes ${field}. ` +
        `Change it in the dashboard, or ${keep}.`,
      e,
    );
  }
}

/** Applies locked and privacyMode (domain PUT), then autoRenew (update workflow). */
async function reconcile(
  ref: Ref,
  known: Registration,
  i: DomainRegistrationInputs,
  ctx: HandlerContext,
  price: Price | undefined,
): Promise<Registration> {
  const put = domainChanges(known, i);
  if (put) await putDomain(ref, known, put, ctx);
  const live = put ? await ctx.api.registrar.registrations.get(ref) : known;
  if (i.autoRenew === live.auto_renew) return live;
  const workflow = await ctx.api.registrar.registrations.update(ref, { auto_renew: i.autoRenew });
  if (workflow.state === "succeeded") return ctx.api.registrar.registrations.get(ref);
  return awaitWorkflow("update", ref, i, ctx, price);
}

/** The action a pending registration waits for, if any. */
async function pendingActionOf(ref: Ref, ctx: HandlerContext): Promise<string | undefined> {
  const w = await ctx.api.registrar.registrationWorkflow.status(ref);
  return w.state === "action_required" ? w.context?.action : undefined;
}

export const remote: Remote<Spec, Live> = {
  noun: "registration",
  idOf: (live) => live.domain_name,
  async get(id, state, ctx) {
    const ref = refOf(id, state, ctx);
    const live = await orGone(ctx.api.registrar.registrations.get(ref));
    if (live === undefined) return undefined;
    // Read hands over the stored state, outputs included: the price is only ever known from it.
    const price = PriceSchema.safeParse(Reflect.get(state, "price"));
    // A stored state says whether it manages the lock (its `locked` is there either way).
    const lockManaged: unknown = Reflect.get(state, "lockManaged");
    const pendingAction =
      live.status === "registration_pending" ? await pendingActionOf(ref, ctx) : undefined;
    return {
      ...live,
      ...(price.success ? { price: price.data } : {}),
      ...(pendingAction !== undefined ? { pendingAction } : {}),
      ...(typeof lockManaged === "boolean" ? { lockManaged } : {}),
    };
  },
  async create(i, ctx) {
    const ref = refOf(i.domainName, i, ctx);
    const pricing = await checkDomain(ref, ctx);
    const asked = pricing && i.years !== undefined ? priceFor(pricing, i.years) : undefined;
    if (i.maxCost) {
      if (!asked)
        throw inputError("maxCost", `the check gave no price for ${ref.domainName}; refusing to register`);
      const refusal = priceGuard(asked, i.maxCost, ref.domainName);
      if (refusal) throw inputError(refusal.field, refusal.rule);
    }
    const body = RegistrationCreateSchema.parse(toWire(DomainRegistrationSpec, i, CREATE_INPUTS));
    const created = await ctx.api.registrar.registrations.create({ accountId: ref.accountId }, body);
    const live =
      created.workflow.state === "succeeded" && created.workflow.context?.registration
        ? created.workflow.context.registration
        : await awaitWorkflow("registration", ref, i, ctx, asked);
    const term = i.years ?? termOf(live);
    const price = asked ?? (pricing && term !== undefined ? priceFor(pricing, term) : undefined);
    let done: Registration;
    try {
      done = await reconcile(ref, live, i, ctx, price);
    } catch (e) {
      // The domain is registered: it is recorded whatever else failed, and the next up goes on.
      if (e instanceof PartialCreateError) throw e;
      throw unfinished(
        i,
        { ...live, ...(price ? { price } : {}) },
        `${ref.domainName} is registered, but ${e instanceof Error ? e.message : String(e)}; run up again to apply the rest`,
      );
    }
    return { ...done, ...(price ? { price } : {}) };
  },
  async update(id, i, _changed, olds, ctx) {
    // Every update first finishes a registration still pending (a partial create's next up).
    const ref = refOf(id, i, ctx);
    const live = await reconcile(ref, await settled(ref, i, ctx, olds.price), i, ctx, olds.price);
    return { ...live, ...(olds.price ? { price: olds.price } : {}) };
  },
  async remove(id, state, ctx) {
    const until = state.expiresAt ? ` until ${state.expiresAt}` : "";
    ctx.log(
      `DomainRegistration: ${id} stays registered${until} (the API cannot delete a registration); ` +
        `it was removed from the stack only${state.autoRenew ? ", and it still auto-renews" : ""}.`,
    );
  },
};

/**
 * A new registration (not an adoption, not one already made) on an extension the registrar does not
 * support is refused at check, so at preview, before any request of its own.
 */
async function checkLive(
  i: DomainRegistrationInputs,
  olds: Partial<DomainRegistrationInputs> | undefined,
  ctx: HandlerContext,
): Promise<InputIssue[]> {
  if (i.importId !== undefined) return [];
  if (olds?.domainName !== undefined && normalizeDomainName(olds.domainName) === i.domainName) return [];
  const supported = await supportedExtensions(ctx, ctx.accountId(i.accountId));
  const issue = supported && unsupportedExtension(i.domainName, supported);
  return issue ? [issue] : [];
}

export const checks: Checks<Spec> = {
  rules,
  checkLive,
};

export const key: NaturalKey<Spec, Live> = {
  findByKey: (i, ctx) => ctx.api.registrar.registrations.find(refOf(i.domainName, i, ctx)),
  // No look-up before the create: a domain is registered once, so what an earlier attempt registered
  // makes the check answer domain_unavailable (or the registration a 409), and that leads to it.
  refusedAsHeld,
};

export const reading: Reading<Spec, Live> = {
  // An unset `locked` is not managed: whatever the registry holds is no change, unless the state
  // still manages it (the program just left it out: the update records that it no longer does).
  same: (field, olds, news) => field === "locked" && news.locked === undefined && olds.lockManaged !== true,
  project(live, previous, fromTable) {
    if (live.lockManaged ?? previous.locked !== undefined) return fromTable;
    const { locked: _unmanaged, ...rest } = fromTable;
    return rest;
  },
  outputs,
};

export const history: History = {
  upgrade: upgradeState,
};
