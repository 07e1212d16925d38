/**
 * Writing files without following a symbolic link and without replacing what someone else put there.
 * The CLI writes programs, import files, reports and the emulator's state into folders a user (or an
 * attacker with write access to the folder) may have filled: every write goes through here.
 *
 * - `writeNewFile` creates a file that must not exist yet (`O_EXCL | O_NOFOLLOW`), or, when asked to
 *   replace, replaces a regular file atomically through an exclusively created temporary file;
 * - `replaceFileAtomic` always replaces (state files): the temporary file is created exclusively with
 *   the final mode, so a planted `F.tmp` link is never written through.
 */
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

/** Why a write was refused; `path` is the file as the caller named it. */
export class UnsafeWriteError extends Error {
  readonly code: "EEXIST" | "ESYMLINK" | "ENOTFILE";
  readonly path: string;
  constructor(path: string, code: UnsafeWriteError["code"], message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.path = path;
  }
}

export interface WriteOptions {
  /** File mode for a new file (default 0o644; state and anything holding secrets use 0o600). */
  readonly mode?: number;
}

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function writeAllAndClose(fd: number, text: string | Uint8Array): void {
  try {
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What is at `path` without following a link: "none", "file", "symlink" or "other". */
function kindAt(path: string): "none" | "file" | "symlink" | "other" {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return "none";
  if (st.isSymbolicLink()) return "symlink";
  return st.isFile() ? "file" : "other";
}

function refuseLinkOrOther(path: string, kind: ReturnType<typeof kindAt>): void {
  if (kind === "symlink")
    throw new UnsafeWriteError(path, "ESYMLINK", `${path}: is a symbolic link; refusing to write through it`);
  if (kind === "other")
    throw new UnsafeWriteError(path, "ENOTFILE", `${path}: exists and is not a regular file`);
}

/**
 * Replaces (or creates) `path` atomically: the text goes to a temporary file beside it, created
 * exclusively and never through a link, then renamed over `path`. Refuses when `path` is a link or
 * not a regular file.
 */
export function replaceFileAtomic(path: string, text: string | Uint8Array, options: WriteOptions = {}): void {
  refuseLinkOrOther(path, kindAt(path));
  const mode = options.mode ?? 0o644;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  writeAllAndClose(openSync(tmp, CREATE_NEW, mode), text);
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
}

/**
 * Writes a file that must not exist yet; with `replace: true`, an existing regular file is replaced
 * atomically. A link at `path` is refused either way.
 */
export function writeNewFile(
  path: string,
  text: string | Uint8Array,
  options: WriteOptions & { readonly replace?: boolean } = {},
): void {
  const kind = kindAt(path);
  refuseLinkOrOther(path, kind);
  if (kind === "file") {
    if (!options.replace)
      throw new UnsafeWriteError(
        path,
        "EEXIST",
        `${path}: already exists; refusing to overwrite it (--force replaces it)`,
      );
    replaceFileAtomic(path, text, options);
    return;
  }
  try {
    writeAllAndClose(openSync(path, CREATE_NEW, options.mode ?? 0o644), text);
  } catch (err) {
    // Someone made it between the look and the open: refuse as if it had been there.
    if (err instanceof Error && "code" in err && (err.code === "EEXIST" || err.code === "ELOOP"))
      throw new UnsafeWriteError(path, "EEXIST", `${path}: appeared while writing; refusing to overwrite it`);
    throw err;
  }
}
