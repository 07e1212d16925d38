export { buildEmulator, startEmulator, API_PREFIX, CONTROL_PREFIX } from "./server";
export type { Emulator, EmulatorOptions, RunningEmulator, RequestLogEntry } from "./server";
export { ManualClock, OffsetClock, SystemClock } from "./clock";
export type { Clock } from "./clock";
export type { FaultRule } from "./faults";
