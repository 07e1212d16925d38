/** pulumi-account-api: the typed client, the Pulumi resources and the local emulator. */
export * from "./sdk";
export * as provider from "./provider";
export { startEmulator, buildEmulator } from "./emulator";
