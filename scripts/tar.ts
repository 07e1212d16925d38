/**
 * A reproducible `.tar.gz` of a few flat files, for the plugin archive (scripts/build-plugin.ts).
 * Written here rather than with the system's `tar` because GNU and BSD tar disagree on the flags that
 * make an archive reproducible (`--sort`, `--mtime`, `--owner`): these entries have a fixed order (as
 * given), mtime 0, owner and group 0 with no names, and gzip writes no timestamp, so the same files
 * give the same bytes on any machine.
 */
import { gzipSync } from "node:zlib";

export interface TarEntry {
  /** A plain file name (no folders: the archive is flat). */
  name: string;
  /** Permission bits, e.g. 0o755 for the launcher. */
  mode: number;
  data: Buffer;
}

const BLOCK = 512;

/** An octal field of `width` bytes: digits, zero-padded, then a NUL. */
function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(entry: TarEntry): Buffer {
  if (!/^[A-Za-z0-9._-]{1,99}$/.test(entry.name))
    throw new Error(
      `tar: entry name ${JSON.stringify(entry.name)} must be a plain file name of at most 99 characters`,
    );
  const h = Buffer.alloc(BLOCK);
  h.write(entry.name, 0, "utf8");
  h.write(octal(entry.mode, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii"); // uid
  h.write(octal(0, 8), 116, "ascii"); // gid
  h.write(octal(entry.data.length, 12), 124, "ascii");
  h.write(octal(0, 12), 136, "ascii"); // mtime
  h.write("        ", 148, "ascii"); // the checksum counts its own field as spaces
  h.write("0", 156, "ascii"); // a regular file
  h.write("ustar\u000000", 257, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return h;
}

export function tarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // the end-of-archive marker
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
