/**
 * Stand-in for `provider/native/schema.ts` (the schema helper's, branch i19-schema) until it lands:
 * the same exports, with a schema of untyped properties (every field `Any`).
 */
import { isRecord } from "../core/values";
import { INVOKES } from "../functions/table";
import { handlerFor } from "../registry";
import { RESOURCE_KINDS, RUN_KINDS, type ProviderKind } from "../types";

export const PACKAGE_NAME = "account-api";
export const NATIVE_KINDS: readonly ProviderKind[] = [...RESOURCE_KINDS, ...RUN_KINDS];

export function tokenOf(kind: ProviderKind): string {
  return `${PACKAGE_NAME}:index:${kind}`;
}

export function kindOfToken(token: string): ProviderKind | undefined {
  return NATIVE_KINDS.find((k) => tokenOf(k) === token);
}

const anyOf = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: "pulumi.json#/Any" }]));

export function providerSchema(version: string): Record<string, unknown> {
  const resources = Object.fromEntries(
    NATIVE_KINDS.map((kind) => {
      const d = handlerFor(kind).description;
      const inputs = d?.inputNames ?? [];
      return [
        tokenOf(kind),
        { inputProperties: anyOf(inputs), properties: anyOf([...inputs, ...(d?.outputNames ?? [])]) },
      ];
    }),
  );
  const functions = Object.fromEntries(
    INVOKES.map((f) => [
      tokenOf(f.name as ProviderKind),
      {
        inputs: { properties: anyOf(Object.keys(f.params.shape)) },
        outputs: {
          properties: anyOf(
            "shape" in f.result && isRecord(f.result.shape) ? Object.keys(f.result.shape) : [],
          ),
        },
      },
    ]),
  );
  return { name: PACKAGE_NAME, version, resources, functions };
}
