/** Exact decimal arithmetic for prices: amounts are scaled integers (bigint), never floats. */
import { AccountApiError } from "../errors";
import { YearsSchema } from "../schemas/registrar";
import { validate } from "../validate";

export interface Decimal {
  /** The amount times 10^scale. */
  units: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const m = DECIMAL.exec(text.trim());
  if (!m)
    throw new AccountApiError(
      "ERR_DECIMAL",
      `${JSON.stringify(text)}: must be a non-negative decimal string`,
    );
  const fraction = m[2] ?? "";
  return { units: BigInt(m[1]! + fraction), scale: fraction.length };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function formatDecimal(d: Decimal): string {
  const digits = d.units.toString().padStart(d.scale + 1, "0");
  return d.scale === 0 ? digits : `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function multiplyDecimal(a: Decimal, factor: number): Decimal {
  if (!Number.isSafeInteger(factor) || factor < 0) {
    throw new AccountApiError("ERR_DECIMAL", `factor: must be a non-negative whole number, got ${factor}`);
  }
  return { units: a.units * BigInt(factor), scale: a.scale };
}

/** -1, 0 or 1, comparing two decimal strings exactly ("10.4" equals "10.40"). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/**
 * Rule 3 of spec E: year one at `registration_cost`, each later year at `renewal_cost`. The result has
 * as many decimals as the more precise of the two prices.
 */
export function registrationTotal(registrationCost: string, renewalCost: string, years: number): string {
  validate(YearsSchema, years, "registration total");
  return formatDecimal(
    addDecimal(parseDecimal(registrationCost), multiplyDecimal(parseDecimal(renewalCost), years - 1)),
  );
}
