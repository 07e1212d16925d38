/**
 * Runs async work one at a time per key. One provider process serves every dynamic resource of a
 * stack in parallel, so read-modify-write of a shared remote object (a zone's ruleset) must queue.
 * One instance lives in each provider session: no module-level state.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier call for the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
