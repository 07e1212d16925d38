/**
 * Turns on Node's module compile cache (Node >= 22.1) for everything loaded after it: the entry
 * points (the root and the provider host's runtime) import this first, so the next start of a
 * program or of a provider host reads their compiled code from disk instead of compiling it again.
 *
 * The cache lives where Node puts it by default (the system's temporary directory) or where
 * `NODE_COMPILE_CACHE` says; `NODE_DISABLE_COMPILE_CACHE=1` turns it off. It is an optimisation only:
 * Node reports a directory it cannot use (read-only, full) instead of throwing, and any throw is
 * swallowed here, so it never fails a run. Kept free of our imports so it runs before anything loads.
 */
import * as nodeModule from "node:module";

try {
  if (typeof nodeModule.enableCompileCache === "function") nodeModule.enableCompileCache();
} catch {
  // Startup speed is not worth a failed run.
}

/**
 * Writes what the cache holds so far. Node writes it when the process exits, but a provider host is
 * stopped by the engine, which may not let it exit normally; the runtime calls this after it has
 * loaded a kind's modules. Node fails silently on a write error; the catch is for older Nodes.
 */
export function flushCompileCache(): void {
  try {
    if (typeof nodeModule.flushCompileCache === "function") nodeModule.flushCompileCache();
  } catch {
    // As above: a cache miss next time is the only cost.
  }
}
