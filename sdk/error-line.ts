/** Errors as one line of text, for the CLI's messages and the drift report's. */
/** A line that is a frame of a stack trace (`    at f (file:1:2)`), wherever a message quotes one. */
const STACK_FRAME = /^\s*at\s+\S.*(?:\(.*:\d+:\d+\)|:\d+:\d+|\(native\)|\(<anonymous>\))\s*$/;

/**
 * An error as the one line docs/cli.md promises: its message, without stack frames (a message may
 * quote another process's output) and without line breaks; never `[object Object]`.
 */
export function errorLine(err: unknown): string {
  let text: string;
  if (err instanceof Error) text = err.message || err.name;
  else if (typeof err === "string") text = err;
  else if (err === undefined || err === null) text = "";
  else {
    try {
      text = JSON.stringify(err) ?? String(err);
    } catch {
      text = String(err);
    }
  }
  const lines = text
    .split(/\r?\n/)
    .filter((l) => !STACK_FRAME.test(l))
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.join(" ") || "unknown error";
}
