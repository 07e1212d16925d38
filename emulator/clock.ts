/**
 * Time for the emulator's state machines. State is derived from timestamps and `now()`, never from
 * timers, so a test advances a ManualClock instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.parse("2026-01-01T00:00:00Z")) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError("advance: ms must be >= 0");
    this.#now += ms;
  }
  set(epochMs: number): void {
    this.#now = epochMs;
  }
}

/** A system clock that can also be pushed ahead (the control API's clock/advance on a live server). */
export class OffsetClock implements Clock {
  #offset = 0;
  now(): number {
    return Date.now() + this.#offset;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError("advance: ms must be >= 0");
    this.#offset += ms;
  }
}

export function isAdvanceable(clock: Clock): clock is Clock & { advance(ms: number): void } {
  return "advance" in clock && typeof clock.advance === "function";
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
