/**
 * Where the project's copy of the contract and its overlay live (contract/README.md): the one place
 * tests, scripts and the schema generator take these paths from.
 */
import { resolve } from "node:path";

export const CONTRACT_DIR = resolve(__dirname);
/** The 112 operations of the six areas (byte copy of the shared spec's file). */
export const SUBSET_PATH = resolve(CONTRACT_DIR, "openapi/public-subset.json");
/** The 31 other operations of the same families, and the newer client's `resolutionNotes`. */
export const FAMILIES_PATH = resolve(CONTRACT_DIR, "openapi/public-families.json");
/** What api.md and docs/assumptions.md fix beyond the contract, as data. */
export const OVERLAY_PATH = resolve(CONTRACT_DIR, "overlay.json");
/** The overlay's rules on request fields, one file per area (`<area>.json`, an array of rules). */
export const RULES_DIR = resolve(CONTRACT_DIR, "rules");
