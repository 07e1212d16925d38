/** The package's own name and version, for the user agent. Read once from the installed package.json. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

function findPackageJson(): { name: string; version: string } {
  // Works from sources (sdk/) and from the build (dist/sdk/): walk up to our own package.json.
  for (let dir = __dirname, i = 0; i < 4; dir = join(dir, ".."), i++) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const name = field(pkg, "name");
      const version = field(pkg, "version");
      // The emulator's package carries a copy of the sdk; the two are released together.
      if (
        (name === "pulumi-account-api" || name === "pulumi-account-api-emulator") &&
        typeof version === "string" &&
        version
      )
        return { name, version };
    } catch {
      // not here; keep walking up
    }
  }
  return { name: "pulumi-account-api", version: "0.0.0" };
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value
    ? Object.getOwnPropertyDescriptor(value, key)?.value
    : undefined;
}

const pkg = findPackageJson();
export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
