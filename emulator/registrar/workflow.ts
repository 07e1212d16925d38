/**
 * Workflow timelines. A workflow is stored as a list of (state, at) steps planned when it starts; its
 * state at any moment is the last step whose time has come, so nothing runs on a timer and a test
 * moves it along by advancing the clock. Control actions (force a state, resolve an action) rewrite
 * the future part of the list.
 */
import type { WorkflowError, WorkflowKind, WorkflowState } from "../../sdk/schemas/registrar";

export interface Step {
  state: WorkflowState;
  at: number;
}

/** How a workflow goes: plainly, or through one of the states the table asks clients to handle. */
export const SCENARIOS = ["normal", "action_required", "blocked", "failed"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface WorkflowRecord {
  kind: WorkflowKind;
  domain_name: string;
  created_at: number;
  steps: Step[];
  /** What the user must do, while the state is action_required. */
  action?: string;
  /** Why it failed, once the state is failed. */
  error?: WorkflowError;
  /** Update workflows: the change they apply when they succeed. */
  change?: { auto_renew: boolean };
  /** Set once a succeeded update's change was folded into the registration. */
  applied?: boolean;
  /** How long the plain remainder takes (used when an action is resolved or a block lifts). */
  processing_ms: number;
}

/** Time a new workflow stays pending before the registry picks it up. */
export const PENDING_MS = 1_000;
/** When an action_required, blocked or failed scenario departs from the plain path. */
export const DETOUR_AT_MS = 2_000;
/** How long a blocked workflow stays blocked before the third party lets it through. */
export const BLOCKED_MS = 30_000;
/** A workflow that completes within this window is answered synchronously (201/200), else 202. */
export const SYNC_WINDOW_MS = 5_000;
/** Update workflows are quick: they finish inside the synchronous window. */
export const UPDATE_PROCESSING_MS = 3_000;

export const DEFAULT_ACTION =
  "Verify the registrant email address by following the link sent to the registrant contact, then resume the workflow.";

export function defaultError(kind: WorkflowKind, domainName: string): WorkflowError {
  return kind === "registration"
    ? {
        code: "registry_rejected",
        message: `The registry rejected the registration of ${domainName}: the registrant data did not pass registry validation.`,
      }
    : { code: "registry_update_rejected", message: `The registry rejected the update of ${domainName}.` };
}

/** Plans the steps of a new workflow starting at t0. */
export function plan(scenario: Scenario, t0: number, processingMs: number): Step[] {
  const start: Step[] = [
    { state: "pending", at: t0 },
    { state: "in_progress", at: t0 + PENDING_MS },
  ];
  switch (scenario) {
    case "normal":
      return [...start, { state: "succeeded", at: t0 + Math.max(processingMs, PENDING_MS) }];
    case "action_required":
      return [...start, { state: "action_required", at: t0 + DETOUR_AT_MS }];
    case "blocked": {
      const lifted = t0 + DETOUR_AT_MS + BLOCKED_MS;
      return [
        ...start,
        { state: "blocked", at: t0 + DETOUR_AT_MS },
        { state: "in_progress", at: lifted },
        { state: "succeeded", at: lifted + processingMs },
      ];
    }
    case "failed":
      // Always beyond the synchronous window, so a failure is seen by polling, as on the service.
      return [...start, { state: "failed", at: t0 + Math.max(processingMs, SYNC_WINDOW_MS + PENDING_MS) }];
  }
}

/** The step in force at `now` (the first one if none has come yet). */
export function currentStep(w: WorkflowRecord, now: number): Step {
  let current = w.steps[0]!;
  for (const step of w.steps) if (step.at <= now) current = step;
  return current;
}

export function stateAt(w: WorkflowRecord, now: number): WorkflowState {
  return currentStep(w, now).state;
}

export function isTerminal(state: WorkflowState): boolean {
  return state === "succeeded" || state === "failed";
}

/** When the workflow will complete, if its plan completes at all (an action_required never does by itself). */
export function completesAt(w: WorkflowRecord): number | undefined {
  return w.steps.find((s) => isTerminal(s.state))?.at;
}

/**
 * The server waited for the workflow (it completed within the synchronous window): its whole plan is
 * moved to `now`, because the shared clock cannot move during a request.
 */
export function collapse(w: WorkflowRecord, now: number): void {
  w.steps = w.steps.map((s) => ({ state: s.state, at: now }));
}

/** Replaces the future with `state` from now on (control API). */
export function force(w: WorkflowRecord, now: number, state: WorkflowState): void {
  w.steps = [...w.steps.filter((s) => s.at <= now), { state, at: now }];
}

/** The user acted: the workflow goes on from now and completes after its plain processing time. */
export function resume(w: WorkflowRecord, now: number): void {
  w.steps = [
    ...w.steps.filter((s) => s.at <= now),
    { state: "in_progress", at: now },
    { state: "succeeded", at: now + Math.max(w.processing_ms, PENDING_MS) },
  ];
  delete w.action;
}

/** The states a console user may move a workflow into (the detours of the table, and the happy end). */
export const CONSOLE_MOVES = ["action_required", "blocked", "failed", "succeeded"] as const;
export type ConsoleMove = (typeof CONSOLE_MOVES)[number];

/**
 * Why a move is refused, or undefined when the workflow's rules allow it: a finished workflow
 * (succeeded or failed) never moves again, as on the service, and a move to the state it is in
 * changes nothing a user could test.
 */
export function refusedMove(current: WorkflowState, target: ConsoleMove): string | undefined {
  if (isTerminal(current)) return `it is ${current}: a finished workflow does not move again`;
  if (current === target) return `it is already ${current}`;
  return undefined;
}

/** What a workflow waits on at `now`, in words for the console (undefined once it finished). */
export function waitingOn(w: WorkflowRecord, now: number): string | undefined {
  const state = stateAt(w, now);
  if (isTerminal(state)) return undefined;
  if (state === "action_required") return `the user: ${w.action ?? DEFAULT_ACTION}`;
  const next = w.steps.find((s) => s.at > now);
  const who =
    state === "pending"
      ? "the registry to pick it up"
      : state === "blocked"
        ? "a third party"
        : "the registry";
  return next
    ? `${who} (${next.state} at ${new Date(next.at).toISOString()})`
    : `${who} (no change planned: move it)`;
}
