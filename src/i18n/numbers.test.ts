import { describe, expect, test } from "vitest";
import { plainT, t } from "./index";

describe("numbers interpolated into a translation", () => {
  test("read in Persian digits on a Persian page: گام ۱ … گام ۴", () => {
    expect([1, 2, 3, 4].map((number) => t("fa")("globalVision.stepLabel", { number }))).toEqual([
      "گام ۱",
      "گام ۲",
      "گام ۳",
      "گام ۴",
    ]);
    expect(plainT("fa")("testimonials.slideLabel", { index: 2, total: 12 })).toBe("نظر ۲ از ۱۲");
  });

  test("stay as they are in English and Dutch, a year without grouping", () => {
    expect(t("en")("globalVision.stepLabel", { number: 3 })).toBe("Step 3");
    expect(plainT("nl")("globalVision.stepLabel", { number: 2026 })).toBe("Stap 2026");
  });

  test("decide the plural by the number, not by its written form", () => {
    expect(plainT("fa")("formGuard.tooManyPending", { count: 3, email: "a@b.nl" })).toContain("۳ درخواست");
  });
});
