/** Where things are: this checkout, its engine, the bench's scratch space. */
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(__dirname, "..");
export const ENGINE_BIN = join(REPO_ROOT, ".engine", "bin");
/** Built copies of the package, one per commit, kept between runs. */
export const CACHE_DIR = join(tmpdir(), "pulumi-account-api-bench");
