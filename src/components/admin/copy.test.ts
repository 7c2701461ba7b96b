import { beforeAll, describe, expect, test, vi } from "vitest";
import { formatDate, formatTime } from "#shared/format.ts";
import { adminText } from "./copy";

// 29 November 2026, 01:31 and 13:05 on this machine's clock (the panel shows the browser's time).
const early = new Date(2026, 10, 29, 1, 31).toISOString();
const afternoon = new Date(2026, 10, 29, 13, 5).toISOString();

// The texts come from the page; the formatters need none of them.
beforeAll(() => {
  vi.stubGlobal("document", { getElementById: () => null });
  return () => vi.unstubAllGlobals();
});

describe("the panel's date and time", () => {
  test('English follows the specification: "US English short form: year, short month, day, two-digit hour and minute"', () => {
    const { dateTime } = adminText("en");
    // The review found "Sun, 29 Nov 2026, 01:31" (British, with a weekday).
    expect(dateTime(early)).not.toMatch(/Sun|29 Nov/);
    expect(dateTime(early)).toMatch(/^Nov 29, 2026, 01:31\sAM$/);
    expect(dateTime(afternoon)).toMatch(/^Nov 29, 2026, 01:05\sPM$/);
  });

  test("Dutch and Persian keep their own: the short day, then the 24-hour time in their digits", () => {
    expect(adminText("nl").dateTime(early)).toBe(`${formatDate("nl", "2026-11-29", "short")}, 01:31`);
    expect(adminText("nl").dateTime(afternoon)).toBe("zo 29 nov 2026, 13:05");
    expect(adminText("fa").dateTime(afternoon)).toBe(
      `${formatDate("fa", "2026-11-29", "short")}، ${formatTime("fa", "13:05")}`,
    );
    expect(adminText("fa").dateTime(afternoon)).toContain("۱۳:۰۵");
  });

  test("a timestamp that is not one is shown as it came", () => {
    expect(adminText("en").dateTime("not a time")).toBe("not a time");
  });
});

test("a Persian time stamp joins its day and time with the Persian comma ،", () => {
  const at = "2026-11-29T01:15:00.000Z";
  expect(adminText("fa").dateTime(at)).toMatch(/^[^,]+، [۰-۹]{2}:[۰-۹]{2}$/);
});
