/**
 * `GET /__emulator/events`: server-sent events telling open consoles that the state may have changed.
 * A stream gets `event: change` / `data: {"seq":N}` after a handled request (coalesced, at most one
 * every CHANGE_COALESCE_MS), once a second while something moves on the clock by itself (a build
 * running, a workflow advancing: the `live` checks), and a comment ping every PING_MS so proxies and
 * the browser keep it open. Pages re-read what they show on `change`; the event carries no state, so
 * nothing about a token can leak through it.
 */
import type { ServerResponse } from "node:http";

export const CHANGE_COALESCE_MS = 100;
export const LIVE_TICK_MS = 1_000;
export const PING_MS = 15_000;

/** Whether some state changes with time alone right now (so open pages re-read once a second). */
export type LiveCheck = () => boolean;

/** A check that throws (a state being loaded, a bug) counts as "nothing moves": the tick must not crash the server. */
function safely(check: LiveCheck): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

export class ChangeFeed {
  #seq = 0;
  readonly #streams = new Set<ServerResponse>();
  readonly #live: LiveCheck[] = [];
  #pending: NodeJS.Timeout | undefined;
  #tick: NodeJS.Timeout | undefined;
  #ping: NodeJS.Timeout | undefined;

  get seq(): number {
    return this.#seq;
  }

  /** Open streams (tests check that a stop ends them). */
  get size(): number {
    return this.#streams.size;
  }

  /** Adds a check the once-a-second tick asks (areas whose state moves on the clock add one). */
  addLiveCheck(check: LiveCheck): void {
    this.#live.push(check);
  }

  /** The state may have changed: every stream hears it soon, once however many changes came. */
  notify(): void {
    if (this.#streams.size === 0 || this.#pending) return;
    this.#pending = setTimeout(() => {
      this.#pending = undefined;
      this.#send();
    }, CHANGE_COALESCE_MS);
    this.#pending.unref();
  }

  /** Takes over a response as an event stream (headers already checked by the control API's trust rules). */
  open(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    // The first event lets a page that reconnects re-read at once whatever it missed.
    res.write(`retry: 1000\nevent: change\ndata: ${JSON.stringify({ seq: this.#seq })}\n\n`);
    this.#streams.add(res);
    res.on("close", () => {
      this.#streams.delete(res);
      if (this.#streams.size === 0) this.#stopTimers();
    });
    this.#startTimers();
  }

  /** Ends every stream (the server is closing: an open stream must not hold it). */
  closeAll(): void {
    this.#stopTimers();
    if (this.#pending) clearTimeout(this.#pending);
    this.#pending = undefined;
    for (const res of this.#streams) res.end();
    this.#streams.clear();
  }

  #send(): void {
    this.#seq++;
    const frame = `event: change\ndata: ${JSON.stringify({ seq: this.#seq })}\n\n`;
    for (const res of this.#streams) res.write(frame);
  }

  #startTimers(): void {
    if (!this.#tick) {
      this.#tick = setInterval(() => {
        if (this.#live.some(safely)) this.#send();
      }, LIVE_TICK_MS);
      this.#tick.unref();
    }
    if (!this.#ping) {
      this.#ping = setInterval(() => {
        for (const res of this.#streams) res.write(": ping\n\n");
      }, PING_MS);
      this.#ping.unref();
    }
  }

  #stopTimers(): void {
    clearInterval(this.#tick);
    clearInterval(this.#ping);
    this.#tick = undefined;
    this.#ping = undefined;
  }
}
