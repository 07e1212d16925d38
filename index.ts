/**
 * pulumi-account-api: every resource, function and public type at the root, as Pulumi programs
 * expect (`import { BuildTrigger, triggerBuild } from "pulumi-account-api"`).
 *
 * - The resources and functions (`./provider`) and the typed client (`./sdk`) are both flattened here.
 *   One name is in both: `SearchInstance` is the resource class at the root (what a program declares);
 *   the client's record type of the same name stays reachable as `sdk.SearchInstance` or from
 *   `pulumi-account-api/sdk`. See docs/install.md.
 * - `provider` and `sdk` also stay whole as namespaces (`provider.BuildTrigger` keeps working).
 * - The emulator is not here: it is a server (fastify, pino) whose declarations a user's program must
 *   not have to compile, and whose dependencies it must not install. It is its own package,
 *   `pulumi-account-api-emulator` (the workspace `emulator/`).
 */
// First: Node's compile cache covers only what loads after it (sdk/compile-cache.ts).
import "./sdk/compile-cache";
// Then, before undici loads: a clear error on Node older than 22.
import "./sdk/require-node";

export * from "./sdk";
export * from "./provider";
// The one clash between the two, resolved for programs (the resource class wins).
export { SearchInstance } from "./provider";
export * as provider from "./provider";
export * as sdk from "./sdk";
