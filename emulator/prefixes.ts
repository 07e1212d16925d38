/** Where the emulator serves what: its own module so the server and the console share it without a cycle. */
export const API_PREFIX = "/client/v4";
export const CONTROL_PREFIX = "/__emulator";
