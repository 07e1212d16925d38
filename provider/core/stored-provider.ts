/**
 * The `__provider` every resource of a kind stores: a module for the engine's dynamic-provider host
 * whose `handler()` returns the kind's provider object, by `require` of the package subpath
 * `pulumi-account-api/provider/shims/<kind>` from the program's folder (where the host runs).
 *
 * Written here rather than by the SDK's closure serializer, because the serializer's answer depends
 * on the install layout (seen with 3.259.0): it maps a module file to a package subpath by resolving
 * the package from `@pulumi/pulumi`'s own folder, so where `@pulumi/pulumi` cannot see this package
 * (a pnpm workspace without hoisting, an npm workspace that nests it) it stores
 * `pulumi-account-api/dist/provider/shims/<kind>.js`, which `exports` does not allow
 * (ERR_PACKAGE_PATH_NOT_EXPORTED at the first `up`); and where the files are not under a
 * node_modules folder (`npm link`, this checkout) it stores the object's code (about 2.7 KB).
 *
 * The text is, byte for byte, what the serializer wrote for an installed copy, so stacks it made
 * store the same string.
 */
import type { ProviderKind } from "../types";

export const PACKAGE_NAME = "pulumi-account-api";

/** `SearchInstance` → `search-instance`: the file of the kind's provider object in provider/shims/. */
export function shimFile(kind: ProviderKind): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}

/** The package subpath whose `exports` is the kind's provider object. */
export function shimSubpath(kind: ProviderKind): string {
  return `${PACKAGE_NAME}/provider/shims/${shimFile(kind)}`;
}

export function storedProvider(kind: ProviderKind): string {
  return [
    "exports.handler = __f0;",
    `const provider = require(${JSON.stringify(shimSubpath(kind))});`,
    "",
    "function __f0() {",
    "  return (function() {",
    "    with({ this: undefined, arguments: undefined }) {",
    "",
    "return () => provider;",
    "",
    "    }",
    "  }).apply(undefined, undefined).apply(this, arguments);",
    "}",
    "",
  ].join("\n");
}
