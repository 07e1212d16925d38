/**
 * What the `file://` backend writes: every time the stack's checkpoint file is replaced during a run
 * (inotify through fs.watch), its size is added. The count is a floor (inotify may merge two events
 * on the same name that come before the first is read), so the bytes are too.
 */
import { statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";

export interface Writes {
  writes: number;
  bytes: number;
}

export function watchCheckpoint(file: string): { stop(): Writes } {
  const name = basename(file);
  let writes = 0;
  let bytes = 0;
  let last = "";
  const seen = (): void => {
    try {
      const s = statSync(file);
      const key = `${s.ino}:${s.mtimeMs}:${s.size}`;
      if (key === last) return;
      last = key;
      writes++;
      bytes += s.size;
    } catch {
      // between the removal and the rename
    }
  };
  const watcher = watch(dirname(file), (_event, f) => {
    if (f === name) seen();
  });
  return {
    stop() {
      watcher.close();
      return { writes, bytes };
    },
  };
}
