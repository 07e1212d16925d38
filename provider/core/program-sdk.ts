/**
 * The `@pulumi/pulumi` that resources register through and functions log through: the program's.
 *
 * Installed, this package's own `require("@pulumi/pulumi")` finds the program's copy (a peer
 * dependency). Linked (`npm link` of a checkout), its files live outside any node_modules folder and
 * that `require` finds the checkout's devDependency instead: a second copy, whose request messages
 * the program's engine connection refuses (seen with 3.259.0: "Request message serialization
 * failure: Expected argument of type pulumirpc.RegisterResourceRequest"). There the copy that the
 * program's entry point resolves is taken: the language host's own, or an Automation API driver's
 * (`require.main`, or for an ES module entry, which has none, the script Node was started with).
 */
import { createRequire } from "node:module";
import { sep } from "node:path";
import type * as PulumiSdk from "@pulumi/pulumi";

/** The file `@pulumi/pulumi` is loaded from, when it is not the package's own; else undefined. */
export function programSdkFile(ownFile: string, mainFile: string | undefined): string | undefined {
  if (ownFile.split(sep).includes("node_modules") || !mainFile) return undefined;
  try {
    return createRequire(mainFile).resolve("@pulumi/pulumi");
  } catch {
    return undefined; // the entry point sees no @pulumi/pulumi: the package's own is the only one
  }
}

function load(): typeof PulumiSdk {
  const file = programSdkFile(__filename, require.main?.filename ?? process.argv[1]);
  // `require` of a path answers no type; the file is the program's own @pulumi/pulumi entry point.
  return file ? (require(file) as typeof PulumiSdk) : require("@pulumi/pulumi");
}

export const programSdk: typeof PulumiSdk = load();
