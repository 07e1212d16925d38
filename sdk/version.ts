/** The package's own name and version, for the user agent. Read once from the installed package.json. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

function findPackageJson(): { name: string; version: string } {
  // Works from sources (sdk/) and from the build (dist/sdk/): walk up to our own package.json.
  for (let dir = __dirname, i = 0; i < 4; dir = join(dir, ".."), i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "pulumi-account-api" && pkg.version) return { name: pkg.name, version: pkg.version };
    } catch {
      // not here; keep walking up
    }
  }
  return { name: "pulumi-account-api", version: "0.0.0" };
}

const pkg = findPackageJson();
export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
