/**
 * The provider object of each kind: its module's `exports` (see core/shim.ts), found where a stored
 * state finds it (core/stored-provider.ts), so no list of kinds is kept here.
 */
import type { KindShim } from "../core/shim";
import { shimFile } from "../core/stored-provider";
import type { ProviderKind } from "../types";

export function shimOf(kind: ProviderKind): KindShim {
  return require(`./${shimFile(kind)}`);
}
