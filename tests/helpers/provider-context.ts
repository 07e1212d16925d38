/** A HandlerContext over an emulator fixture, to drive resource handlers directly in tests. */
import { KeyedQueue } from "../../provider/keyed-queue";
import type { HandlerContext } from "../../provider/types";
import type { EmulatorFixture } from "./emulator";

export function providerContext(fx: EmulatorFixture, logs: string[] = []): HandlerContext {
  const api = fx.client();
  const queue = new KeyedQueue();
  return {
    api,
    accountId: (override?: string) => override ?? fx.em.accountId,
    log: (message: string) => {
      logs.push(message);
    },
    serialize: (key, fn) => queue.run(key, fn),
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
