/**
 * Stand-in for `provider/native/schema.ts` (the schema helper's, branch i19-schema) until it lands:
 * the same exports, with a schema that names the package only.
 */
import { RESOURCE_KINDS, RUN_KINDS, type ProviderKind } from "../types";

export const PACKAGE_NAME = "account-api";
export const NATIVE_KINDS: readonly ProviderKind[] = [...RESOURCE_KINDS, ...RUN_KINDS];

export function tokenOf(kind: ProviderKind): string {
  return `${PACKAGE_NAME}:index:${kind}`;
}

export function kindOfToken(token: string): ProviderKind | undefined {
  return NATIVE_KINDS.find((k) => tokenOf(k) === token);
}

export function providerSchema(version: string): Record<string, unknown> {
  return { name: PACKAGE_NAME, version, resources: {}, functions: {} };
}
