import { strict as assert } from "node:assert";
import {
  addDecimal,
  compareDecimal,
  formatDecimal,
  multiplyDecimal,
  parseDecimal,
  registrationTotal,
} from "../../sdk/registrar";
import { ValidationError } from "../../sdk/errors";

describe("registrar: exact decimal prices (spec E, rule 3)", () => {
  it("parses and formats without losing digits or zeros", () => {
    for (const s of ["0", "0.10", "10.44", "123456789012345678901234567890.000001", "7.5"]) {
      assert.equal(formatDecimal(parseDecimal(s)), s);
    }
    assert.deepEqual(parseDecimal("10.44"), { units: 1044n, scale: 2 });
  });

  it("refuses anything that is not a non-negative decimal string", () => {
    for (const bad of ["", "-1", "1e3", "1.", ".5", "ten", "1,5"]) {
      assert.throws(
        () => parseDecimal(bad),
        (e: Error & { code?: string }) => e.code === "ERR_DECIMAL",
      );
    }
  });

  it("adds 0.1 and 0.2 to exactly 0.3, where floating point gives 0.30000000000000004", () => {
    assert.notEqual(0.1 + 0.2, 0.3); // the pitfall is real
    assert.equal(formatDecimal(addDecimal(parseDecimal("0.1"), parseDecimal("0.2"))), "0.3");
    assert.equal(registrationTotal("0.10", "0.20", 2), "0.30");
  });

  it("charges registration_cost for year one and renewal_cost for each later year", () => {
    const table: [string, string, number, string][] = [
      ["10.44", "10.44", 1, "10.44"],
      ["10.44", "10.44", 10, "104.40"], // float: 104.39999999999999
      ["0.10", "0.20", 10, "1.90"], // float: 1.9000000000000001
      ["7.50", "10.11", 10, "98.49"],
      ["10.18", "12.18", 3, "34.54"],
      ["39.89", "49.31", 3, "138.51"],
      ["8", "9.5", 2, "17.5"],
      ["80.00", "80.00", 2, "160.00"],
    ];
    for (const [reg, renew, years, total] of table) {
      assert.equal(registrationTotal(reg, renew, years), total, `${reg} + ${years - 1} × ${renew}`);
    }
    assert.notEqual(String(10.44 + 9 * 10.44), "104.4");
  });

  it("refuses years outside 1 to 10 with the rule", () => {
    for (const years of [0, 11, 1.5]) {
      assert.throws(
        () => registrationTotal("1", "1", years),
        (e: unknown) =>
          e instanceof ValidationError && /must be (between 1 and 10|an integer)/.test(e.message),
      );
    }
  });

  it("multiplies by whole numbers only", () => {
    assert.equal(formatDecimal(multiplyDecimal(parseDecimal("12.18"), 0)), "0.00");
    assert.throws(() => multiplyDecimal(parseDecimal("1"), 1.5), /non-negative whole number/);
  });

  it("compares amounts of different precision exactly", () => {
    assert.equal(compareDecimal("10.4", "10.40"), 0);
    assert.equal(compareDecimal("104.40", "104.4000001"), -1);
    assert.equal(compareDecimal("0.3", "0.29999999999999999999"), 1);
  });
});
