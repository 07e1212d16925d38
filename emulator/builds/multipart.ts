/**
 * Just enough multipart/form-data (RFC 7578) to read a script upload: the parts, their names, file
 * names and bodies. Uploads are small; the whole body is in memory already.
 */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  body: Buffer;
}

export class MultipartError extends Error {}

export function boundaryOf(contentType: string | undefined): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw new MultipartError("content-type: multipart/form-data needs a boundary parameter");
  return boundary;
}

export function parseMultipart(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError("body: no multipart boundary found");
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === "--") return parts;
    pos += 2; // CRLF after the delimiter
    const next = body.indexOf(delimiter, pos);
    if (next < 0) throw new MultipartError("body: multipart body is not terminated");
    const raw = body.subarray(pos, next - 2); // the part ends with CRLF before the next delimiter
    const split = raw.indexOf("\r\n\r\n");
    if (split < 0) throw new MultipartError("body: a multipart part has no header block");
    const headers = parseHeaders(raw.subarray(0, split).toString("utf8"));
    const disposition = headers["content-disposition"] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new MultipartError("body: a multipart part has no name");
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}),
      body: Buffer.from(raw.subarray(split + 4)),
    });
    pos = next;
  }
}

function parseHeaders(block: string): Record<string, string> {
  // Header names are the sender's: no prototype, so none is inherited.
  const out: Record<string, string> = Object.create(null);
  for (const line of block.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** Builds a multipart body (tests and the sdk's callers use it to upload scripts). */
export function buildMultipart(
  parts: readonly Part[],
  boundary = `----emulator${Date.now().toString(16)}`,
): {
  body: Buffer;
  contentType: string;
} {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head), p.body, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
