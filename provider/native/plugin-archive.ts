/**
 * Where the build puts the native plugin's archive, the one `pulumi plugin install resource
 * account-api <version> --file <archive>` installs (scripts/build-plugin.ts makes it;
 * `account-api plugin install` finds it). One archive serves every OS and architecture the launcher
 * runs on: what it holds is JavaScript and a POSIX `sh` launcher (plus a `.cmd` one), no native code.
 */
import { join } from "node:path";

/** The Pulumi package (and plugin) name. */
export const PLUGIN_NAME = "account-api";

/** The executable the engine runs from the plugin's folder ($PULUMI_HOME/plugins/resource-account-api-v<version>/). */
export const PLUGIN_EXECUTABLE = `pulumi-resource-${PLUGIN_NAME}`;

/** The archive's file name for a version: `pulumi-resource-account-api-v0.1.0.tar.gz`. */
export function pluginArchiveName(version: string): string {
  return `${PLUGIN_EXECUTABLE}-v${version}.tar.gz`;
}

/** The archive's path inside a built package's `dist` folder. */
export function pluginArchivePath(distDir: string, version: string): string {
  return join(distDir, "plugin", pluginArchiveName(version));
}
