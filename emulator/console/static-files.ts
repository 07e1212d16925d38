/**
 * The console's files, read from its assets folder only: a path of plain names (no `..`, no hidden
 * files, no backslashes), an extension from the allow-list, and no symbolic link anywhere on the way
 * (a link could lead out of the folder). Anything else is "not found", whatever exists on disk.
 */
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
};

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;

export interface AssetFile {
  body: Buffer;
  contentType: string;
}

/** The file at `relative` (slash-separated) under `root`, or undefined when it may not be served. */
export function readAsset(root: string, relative: string): AssetFile | undefined {
  const segments = relative.split("/");
  if (segments.length > 4 || !segments.every((s) => SEGMENT.test(s))) return undefined;
  const ext = segments.at(-1)!.split(".").at(-1)!.toLowerCase();
  const contentType = Object.hasOwn(CONTENT_TYPES, ext) ? CONTENT_TYPES[ext] : undefined;
  if (!contentType) return undefined;
  let path = root;
  try {
    for (const [i, segment] of segments.entries()) {
      path = join(path, segment);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return undefined;
      if (i < segments.length - 1 ? !stat.isDirectory() : !stat.isFile()) return undefined;
    }
    return { body: readFileSync(path), contentType };
  } catch {
    return undefined;
  }
}
