/**
 * Identical reads made at once share one request, but only a request that began after the caller
 * asked: nobody gets an answer older than its own call, so a look-up made after a write (a create
 * whose answer was lost) still sees that write. A caller that arrives while a read is in flight waits
 * for it to end and joins the next one, which every caller arriving meanwhile shares.
 */
export class FreshReads<T> {
  readonly #slots = new Map<string, { running: Promise<T>; queued?: Promise<T> }>();

  /** The answer of a `fetch` for `key` that started no earlier than this call. */
  read(key: string, fetch: () => Promise<T>): Promise<T> {
    const slot = this.#slots.get(key);
    if (!slot) return this.#launch(key, fetch);
    const launch = (): Promise<T> => this.#launch(key, fetch);
    slot.queued ??= slot.running.then(launch, launch);
    return slot.queued;
  }

  /** Keys with a read in flight or queued (for tests and diagnostics). */
  get size(): number {
    return this.#slots.size;
  }

  #launch(key: string, fetch: () => Promise<T>): Promise<T> {
    const running = fetch();
    this.#slots.set(key, { running });
    // Registered before any queued launch, so it sees the queue and leaves the slot to it.
    const settle = (): void => {
      const slot = this.#slots.get(key);
      if (slot?.running === running && !slot.queued) this.#slots.delete(key);
    };
    running.then(settle, settle);
    return running;
  }
}
