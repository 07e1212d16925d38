/**
 * What moves on the emulator's clock by itself, so open consoles re-read once a second while it
 * does. One check per area whose state advances without a request (a build running, a registrar
 * workflow with a planned step still ahead).
 */
import type { Clock } from "../clock";
import type { BuildsState } from "../builds/model";
import { AREA as BUILDS_AREA } from "../builds/state";
import { viewBuild } from "../builds/timeline";
import type { RegistrarState } from "../registrar/state";
import { isTerminal, stateAt } from "../registrar/workflow";
import { dict, type Store } from "../store";
import type { LiveCheck } from "./events";

/** What the console reads of the emulator (the Emulator has it; no import of the server, which mounts this). */
export interface ConsoleSubject {
  store: Store;
  clock: Clock;
}

/** A build not yet seen stopped whose timeline has not reached its end. */
function buildRunning(em: ConsoleSubject): boolean {
  const state = em.store.area<BuildsState>(BUILDS_AREA, () => ({ accounts: dict() }));
  const now = em.clock.now();
  return Object.values(state.accounts).some((acct) =>
    Object.values(acct.builds).some((b) => !b.applied && viewBuild(b, now).status !== "stopped"),
  );
}

/** A workflow not finished whose plan still has a step to come (a `blocked` set from the console has none). */
function workflowMoving(em: ConsoleSubject): boolean {
  const state = em.store.area<Partial<RegistrarState>>("registrar", () => ({ accounts: dict(), taken: [] }));
  const now = em.clock.now();
  return Object.values(state.accounts ?? {}).some((acct) =>
    Object.values(acct.workflows).some(
      (w) => !isTerminal(stateAt(w, now)) && w.steps.some((s) => s.at > now),
    ),
  );
}

export const LIVE_CHECKS: readonly ((em: ConsoleSubject) => boolean)[] = [buildRunning, workflowMoving];

export function liveChecksOf(em: ConsoleSubject): LiveCheck[] {
  return LIVE_CHECKS.map((check) => () => check(em));
}
