import { describe, expect, test } from "vitest";
import { formatCalendarDate, formatDateTime } from "./format";

describe("admin display formats", () => {
  test("a timestamp reads as US English short date and two-digit time", () => {
    const iso = "2025-03-05T14:07:00.000Z";
    const expected = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    }).format(new Date(iso));
    expect(formatDateTime(iso)).toBe(expected);
    expect(formatDateTime(iso)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}\s?(AM|PM)$/);
  });

  test("a meeting date is the same calendar day in every time zone", () => {
    expect(formatCalendarDate("2025-03-05")).toBe("Mar 5, 2025");
    expect(formatCalendarDate("not a date")).toBe("not a date");
  });
});
