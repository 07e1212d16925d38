/**
 * What moves on the emulator's clock by itself, so open consoles re-read once a second while it
 * does. One check per area whose state advances without a request (a build running; the registrar's
 * workflows add theirs here).
 */
import type { Clock } from "../clock";
import type { BuildsState } from "../builds/model";
import { AREA as BUILDS_AREA } from "../builds/state";
import { viewBuild } from "../builds/timeline";
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

export const LIVE_CHECKS: readonly ((em: ConsoleSubject) => boolean)[] = [buildRunning];

export function liveChecksOf(em: ConsoleSubject): LiveCheck[] {
  return LIVE_CHECKS.map((check) => () => check(em));
}
