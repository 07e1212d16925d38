/** A HandlerContext over an emulator fixture, to drive resource handlers directly in tests. */
import { KeyedQueue } from "../../provider/keyed-queue";
import { SlotClaims } from "../../provider/slot-claims";
import { DEFAULT_WAITS, type HandlerContext, type Waits } from "../../provider/types";
import type { Clock } from "../../sdk/core";
import type { EmulatorFixture } from "./emulator";

/** The emulator's manual clock as a wait's clock: a pause advances it instead of sleeping. */
export function manualClock(fx: EmulatorFixture): Clock {
  return {
    now: () => fx.clock.now(),
    sleep: async (ms) => fx.clock.advance(ms),
  };
}

/**
 * `waits` overrides the session's waits (a shorter deadline); they run on the emulator's manual
 * clock unless `waits.clock` says otherwise.
 */
export function providerContext(
  fx: EmulatorFixture,
  logs: string[] = [],
  waits: Partial<Waits> = {},
): HandlerContext {
  const api = fx.client();
  const queue = new KeyedQueue();
  return {
    api,
    accountId: (override?: string) => override ?? fx.em.accountId,
    log: (message: string) => {
      logs.push(message);
    },
    serialize: (key, fn) => queue.run(key, fn),
    waits: { ...DEFAULT_WAITS, clock: manualClock(fx), ...waits },
    claims: new SlotClaims(),
  };
}

/** A context whose API must not be reached: check of bad input answers before any request. */
export const offlineContext: HandlerContext = {
  get api(): never {
    throw new Error("no request may be sent");
  },
  accountId: (override?: string) => override ?? "acct",
  log: () => undefined,
  serialize: (_key, fn) => fn(),
};
