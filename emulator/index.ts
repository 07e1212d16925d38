export { buildEmulator, startEmulator, API_PREFIX, CONTROL_PREFIX } from "./server";
export type {
  Emulator,
  EmulatorOptions,
  Exchange,
  RunningEmulator,
  RequestLogEntry,
  RateLimitSwitch,
  RouteEntry,
} from "./server";
export { RateLimiter } from "./rate-limit";
export type { RateLimit, RateDecision } from "./rate-limit";
export { ManualClock, OffsetClock, SystemClock } from "./clock";
export type { Clock } from "./clock";
export type { FaultRule } from "./faults";
