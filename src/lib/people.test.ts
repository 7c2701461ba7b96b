import { describe, expect, test } from "vitest";
import { initials } from "./people";

describe("initials", () => {
  test("take the first letter of the first and the last name", () => {
    expect(initials("Daniel de Vries")).toBe("DV");
    expect(initials("Pieter van Dijk")).toBe("PD");
    expect(initials("Sara Rahimi")).toBe("SR");
  });
  test("one name gives one letter; extra spaces do not matter", () => {
    expect(initials("Madonna")).toBe("M");
    expect(initials("  leila   ahmadi ")).toBe("LA");
  });
  test("Persian initials stay two separate letters (zero-width non-joiner between them)", () => {
    expect(initials("سارا رحیمی")).toBe("س\u200Cر");
    expect(initials("دانیل د فریس")).toBe("د\u200Cف");
  });
});
