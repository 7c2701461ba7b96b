import { describe, expect, test } from "vitest";
import { honeypotFilled } from "./form-guard.ts";

describe("the honeypot", () => {
  test.each([["x"], [["x"]], [{ a: 1 }], [1], [true], [[""]]])("refuses any non-empty value: %j", (value) => {
    expect(honeypotFilled(value)).toBe(true);
  });
  test.each([[undefined], [null], [""], ["   "]])("lets an empty field through: %j", (value) => {
    expect(honeypotFilled(value)).toBe(false);
  });
});
