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
