/**
 * The engine's wire form of secrets, for a provider that accepts them (Configure's acceptSecrets):
 * a secret arrives as `{ [SIG]: SECRET_SIG, value }` wherever it sits, and an output is secret only
 * where the provider answers it so. The handlers see plain values (`reveal`); what they answer is
 * wrapped again where the program's value was secret (`keepSecrets`, leaf by leaf as the engine's
 * own annotateSecrets does) and where the description flags a field (`markSecret`).
 */
import { isRecord } from "../core/values";

/** The key every special value of the engine's wire form carries, and the one that means "secret". */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface SecretValue {
  readonly [SIG]: typeof SECRET_SIG;
  readonly value: unknown;
}

export function isSecret(value: unknown): value is SecretValue {
  return isRecord(value) && value[SIG] === SECRET_SIG;
}

export function secret(value: unknown): unknown {
  return isSecret(value) || value === undefined ? value : { [SIG]: SECRET_SIG, value };
}

/** The value without any secret wrapper, at any depth. */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

/** A record of the wire's values, revealed; anything else is an empty record. */
export function revealRecord(value: unknown): Record<string, unknown> {
  const plain = reveal(value);
  return isRecord(plain) ? plain : {};
}

export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (isRecord(value)) return Object.values(value).some(containsSecret);
  return false;
}

/**
 * `outs` with the secrecy of `ins`: where both hold an object under one key, key by key; otherwise
 * the whole value is secret when the program's held a secret anywhere (a list the service reordered
 * must not leak the element that moved).
 */
export function keepSecrets(
  outs: Record<string, unknown>,
  ins: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...outs };
  for (const [k, v] of Object.entries(ins)) {
    if (!(k in result)) continue;
    const out = result[k];
    if (isRecord(out) && !isSecret(out) && isRecord(v) && !isSecret(v)) result[k] = keepSecrets(out, v);
    else if (containsSecret(v)) result[k] = secret(out);
  }
  return result;
}

/** The record with each named field (present) wrapped as a secret. */
export function markSecret(
  record: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  const result = { ...record };
  for (const k of names) if (result[k] !== undefined) result[k] = secret(result[k]);
  return result;
}
