/**
 * Validation of recorded exchanges against the contract's JSON Schemas with ajv (draft-07: the file
 * has no `$schema` and uses only draft-07 keywords) and ajv-formats.
 *
 * The file is read in the OpenAPI sense of `readOnly`/`writeOnly`: a request must not send a
 * read-only property and need not send a required one; a response must not send a write-only
 * property (a secret echoed back) and need not send a required one.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { boundaryOf, parseMultipart } from "../../emulator/builds/multipart";
import { operationKey, type Operation, type ResponseSpec } from "./contract";
import type { RecordedExchange } from "./recorder";

export type Side = "request" | "response";

/** One validation error, located where the override table can name it. */
export interface Issue {
  side: Side;
  /** The response's status as sent, or undefined for the request. */
  status?: number;
  /** The documented key the response was validated under (`200`, `4XX`). */
  statusKey?: string;
  /** JSON pointer of the offending value (for a missing property: where it should be). */
  pointer: string;
  message: string;
}

/** Something the contract is too loose, or too silent, to judge: reported, never a failure. */
export interface Note {
  pointer?: string;
  message: string;
}

export interface ExchangeVerdict {
  /** Validation errors (before the override table is applied). */
  issues: Issue[];
  notes: Note[];
  /** The documented response key the answer fell under, or undefined when undocumented. */
  statusKey: string | undefined;
}

const READ_ONLY_SENT = "x-conformance-read-only-sent";
const WRITE_ONLY_SENT = "x-conformance-write-only-sent";

function newAjv(coerceTypes: boolean): Ajv {
  // strictTypes off: the split writes keywords without their type inside allOf branches (`minItems`
  // and `minLength` on `errors`, `required` in a `result` branch). strictRequired off: a `required`
  // may name a property another allOf branch declares. Everything else stays strict.
  const ajv = new Ajv({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allErrors: true,
    coerceTypes,
  });
  addFormats(ajv);
  // A multipart file part: bytes, nothing a JSON Schema format can check.
  ajv.addFormat("binary", true);
  ajv.addKeyword({
    keyword: READ_ONLY_SENT,
    schemaType: "boolean",
    error: { message: "is read-only: the service sets it, a request must not send it" },
    validate: () => false,
  });
  ajv.addKeyword({
    keyword: WRITE_ONLY_SENT,
    schemaType: "boolean",
    error: { message: "is write-only: the service takes it, a response must not send it back" },
    validate: () => false,
  });
  return ajv;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const SUBSCHEMA_LISTS = ["anyOf", "allOf", "oneOf"] as const;
const SUBSCHEMA_ONE = ["items", "not", "additionalProperties"] as const;

/**
 * The schema as one side sees it: on the request side a read-only property fails when present and is
 * no longer required; on the response side the same for write-only. Copies; the contract is untouched.
 */
export function sideView(schema: unknown, side: Side): unknown {
  if (!isObject(schema)) return schema;
  const hidden = side === "request" ? "readOnly" : "writeOnly";
  const out: Record<string, unknown> = { ...schema };
  const props = schema.properties;
  if (isObject(props)) {
    const mapped: Record<string, unknown> = {};
    const dropped = new Set<string>();
    for (const [name, sub] of Object.entries(props)) {
      const view = sideView(sub, side);
      if (isObject(sub) && sub[hidden] === true) {
        dropped.add(name);
        mapped[name] = { ...(view as object), [side === "request" ? READ_ONLY_SENT : WRITE_ONLY_SENT]: true };
      } else mapped[name] = view;
    }
    out.properties = mapped;
    if (Array.isArray(schema.required) && dropped.size)
      out.required = schema.required.filter((r) => !dropped.has(String(r)));
  }
  for (const k of SUBSCHEMA_LISTS) {
    const list = schema[k];
    if (Array.isArray(list)) out[k] = list.map((s) => sideView(s, side));
  }
  for (const k of SUBSCHEMA_ONE) if (k in schema) out[k] = sideView(schema[k], side);
  if (isObject(schema.patternProperties))
    out.patternProperties = Object.fromEntries(
      Object.entries(schema.patternProperties).map(([p, s]) => [p, sideView(s, side)]),
    );
  return out;
}

/** Where an ajv error points: a missing property is located where it should be. */
function pointerOf(e: ErrorObject): string {
  const missing =
    e.keyword === "required" ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  return missing === undefined ? e.instancePath : `${e.instancePath}/${escapePointer(missing)}`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === "enum") return `${e.message}: ${JSON.stringify(p.allowedValues)}`;
  if (e.keyword === "const") return `${e.message}: ${JSON.stringify(p.allowedValue)}`;
  return e.message ?? e.keyword;
}

/** Drops the noise of a failed anyOf: only its own error is kept when a branch failed below it. */
function toIssues(errors: readonly ErrorObject[], side: Side, status?: number, statusKey?: string): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  for (const e of errors) {
    const issue: Issue = {
      side,
      pointer: pointerOf(e),
      message: messageOf(e),
      ...(status !== undefined ? { status } : {}),
      ...(statusKey !== undefined ? { statusKey } : {}),
    };
    const key = `${issue.pointer} ${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/** The documented response for a status: the exact code, else its range (`4XX`), else `default`. */
export function responseKeyFor(op: Operation, status: number): string | undefined {
  const exact = String(status);
  if (op.responses[exact]) return exact;
  const range = `${String(status)[0]}XX`;
  if (op.responses[range]) return range;
  return op.responses.default ? "default" : undefined;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

function isJsonMedia(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

/** Properties a schema declares (across its allOf/anyOf/oneOf branches), or undefined if it declares none. */
function declared(schema: unknown): Map<string, unknown> | undefined {
  if (!isObject(schema)) return undefined;
  const found = new Map<string, unknown>();
  let any = false;
  if (isObject(schema.properties)) {
    any = Object.keys(schema.properties).length > 0;
    for (const [k, v] of Object.entries(schema.properties)) found.set(k, v);
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined;
  for (const k of SUBSCHEMA_LISTS) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    for (const branch of list) {
      const sub = declared(branch);
      if (!sub) {
        if (isObject(branch) && (branch.type === "object" || isObject(branch.properties))) return undefined;
        continue;
      }
      any = true;
      for (const [name, v] of sub) if (!found.has(name)) found.set(name, v);
    }
  }
  return any ? found : undefined;
}

/**
 * Request fields the contract does not name. The split lost `additionalProperties`, so the file
 * cannot refuse them; they are reported as notes (a field the service does not know is ignored or
 * refused by it, and the contract cannot say which).
 */
export function undeclaredFields(schema: unknown, value: unknown, pointer = ""): string[] {
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    return value.flatMap((v, i) => undeclaredFields(items, v, `${pointer}/${i}`));
  }
  if (!isObject(value)) return [];
  const props = declared(schema);
  if (!props) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const at = `${pointer}/${escapePointer(k)}`;
    return props.has(k) ? undeclaredFields(props.get(k), v, at) : [at];
  });
}

export class ContractValidator {
  readonly #json = newAjv(false);
  // Form fields arrive as text: `wait_for_completion=true` is the boolean the schema describes.
  readonly #form = newAjv(true);
  readonly #cache = new Map<string, ValidateFunction>();

  #compile(key: string, schema: unknown, side: Side, form = false): ValidateFunction {
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const fn = (form ? this.#form : this.#json).compile(sideView(schema, side) as Json as object);
    this.#cache.set(key, fn);
    return fn;
  }

  /** Validates one exchange of `op`: the sdk's (or `kit.call`'s) request body, and every answer. */
  check(op: Operation, x: RecordedExchange): ExchangeVerdict {
    const issues: Issue[] = [];
    const notes: Note[] = [];
    if (x.sender === "sdk" || x.sender === "direct") this.#request(op, x, issues, notes);
    const statusKey = responseKeyFor(op, x.status);
    if (x.dropped)
      notes.push({ message: "the answer was dropped by an injected fault (not heard by the client)" });
    else this.#response(op, x, statusKey, issues, notes);
    return { issues, notes, statusKey };
  }

  #request(op: Operation, x: RecordedExchange, issues: Issue[], notes: Note[]): void {
    const content = op.requestBody?.content ?? {};
    const types = Object.keys(content);
    if (x.requestBody === undefined || x.requestBody === null) return;
    const type = mediaType(x.requestContentType);
    if (!types.length) {
      notes.push({
        message: `sends a ${type || "body"} the contract does not describe (it documents no body)`,
      });
      return;
    }
    const schema = content[type]?.schema;
    if (!(type in content)) {
      issues.push({
        side: "request",
        pointer: "",
        message: `content-type ${type || "(none)"}: the contract takes ${types.join(" or ")}`,
      });
      return;
    }
    if (schema === undefined) return;
    const key = `${operationKey(op)} request ${type}`;
    if (isJsonMedia(type)) {
      const fn = this.#compile(key, schema, "request");
      if (!fn(x.requestBody)) issues.push(...toIssues(fn.errors ?? [], "request"));
      for (const at of undeclaredFields(schema, x.requestBody))
        notes.push({
          pointer: at,
          message: "request field not named by the contract (its objects are open)",
        });
      return;
    }
    if (type === "multipart/form-data") {
      const form = formFields(x);
      if (!form) {
        notes.push({ message: "multipart body not available as bytes: not validated" });
        return;
      }
      const fn = this.#compile(`${key} form`, schema, "request", true);
      if (!fn(form)) issues.push(...toIssues(fn.errors ?? [], "request"));
      return;
    }
    notes.push({ message: `${type} request body: not validated (only JSON and multipart are)` });
  }

  #response(
    op: Operation,
    x: RecordedExchange,
    statusKey: string | undefined,
    issues: Issue[],
    notes: Note[],
  ): void {
    if (statusKey === undefined) {
      const documented = Object.keys(op.responses).join(", ");
      if (x.status < 300)
        issues.push({
          side: "response",
          status: x.status,
          pointer: "",
          message: `status ${x.status} is not documented (the contract documents ${documented})`,
        });
      else notes.push({ message: `status ${x.status} is not documented (${documented}): not validated` });
      return;
    }
    const spec: ResponseSpec = op.responses[statusKey]!;
    const content = spec.content ?? {};
    const types = Object.keys(content);
    if (!types.length) return;
    const type = mediaType(x.responseContentType);
    const base = { side: "response" as const, status: x.status, statusKey };
    if (!(type in content)) {
      issues.push({
        ...base,
        pointer: "",
        message: `content-type ${type || "(none)"}: documented ${types.join(" or ")}`,
      });
      return;
    }
    const schema = content[type]?.schema;
    if (schema === undefined || !isJsonMedia(type)) return;
    let body: unknown;
    try {
      body = JSON.parse(x.responseText);
    } catch {
      issues.push({ ...base, pointer: "", message: "body is not JSON" });
      return;
    }
    const fn = this.#compile(`${operationKey(op)} response ${statusKey} ${type}`, schema, "response");
    if (!fn(body)) issues.push(...toIssues(fn.errors ?? [], "response", x.status, statusKey));
  }
}

/** A multipart body as the object its schema describes: text parts as text, file parts as their name. */
function formFields(x: RecordedExchange): Record<string, string> | undefined {
  if (!Buffer.isBuffer(x.requestBody) || !x.requestContentType) return undefined;
  try {
    const out: Record<string, string> = {};
    for (const part of parseMultipart(x.requestBody, boundaryOf(x.requestContentType)))
      out[part.name] = part.filename !== undefined ? part.filename : part.body.toString("utf8");
    return out;
  } catch {
    return undefined;
  }
}
