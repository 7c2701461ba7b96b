import { describe, expect, test } from "vitest";
import {
  calendarParts,
  formatDate,
  formatMonth,
  formatNumber,
  formatTime,
  isolateLatinRuns,
  textDirection,
  localizeDigits,
  weekdayNames,
} from "./format";

const LATIN_DIGIT = /[0-9]/;

describe("formatDate", () => {
  test("en and nl: the Gregorian day in words", () => {
    expect(formatDate("en", "2026-11-24")).toMatch(/^Tuesday,? 24 November 2026$/);
    expect(formatDate("nl", "2026-11-24")).toBe("dinsdag 24 november 2026");
    expect(formatDate("en", "2026-11-24", "short")).toMatch(/^Tue,? 24 Nov 2026$/);
  });

  test("fa: the Jalali date, then the Gregorian one in brackets, all in Persian digits", () => {
    expect(formatDate("fa", "2026-11-24")).toBe("سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)");
    expect(formatDate("fa", "2026-11-24", "short")).toBe("۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)");
    // Nowruz: the first day of the Jalali year.
    expect(formatDate("fa", "2027-03-21", "short")).toBe("۱ فروردین ۱۴۰۶ (۲۱ مارس ۲۰۲۷)");
    expect(formatDate("fa", "2026-12-31")).not.toMatch(LATIN_DIGIT);
  });

  test("no time zone moves a day: the first and last day of a month stay themselves", () => {
    for (const lang of ["en", "nl", "fa"] as const) {
      expect(formatDate(lang, "2026-03-01")).toBe(formatDate(lang, "2026-03-01"));
      expect(calendarParts("2026-03-01", "gregory")).toEqual({ year: 2026, month: 3, day: 1 });
    }
    expect(formatDate("en", "2026-03-01")).toContain("1 March 2026");
  });
});

describe("calendarParts", () => {
  test("converts to the Persian calendar", () => {
    expect(calendarParts("2026-11-24", "persian")).toEqual({ year: 1405, month: 9, day: 3 });
    expect(calendarParts("2027-03-21", "persian")).toEqual({ year: 1406, month: 1, day: 1 });
    expect(calendarParts("2027-03-20", "persian")).toEqual({ year: 1405, month: 12, day: 29 });
  });
});

describe("formatMonth", () => {
  test("a Jalali month names the Gregorian months it spans", () => {
    expect(formatMonth("fa", "2026-11-22", "2026-12-21")).toEqual({
      title: "آذر ۱۴۰۵",
      gregorian: "نوامبر – دسامبر ۲۰۲۶",
    });
    expect(formatMonth("fa", "2026-12-22", "2027-01-20").gregorian).toBe("دسامبر ۲۰۲۶ – ژانویه ۲۰۲۷");
    expect(formatMonth("en", "2026-11-01", "2026-11-30")).toEqual({ title: "November 2026" });
  });
});

describe("weekdayNames", () => {
  test("Persian weeks start on Saturday with the usual initials", () => {
    expect(weekdayNames("fa", 6).map((d) => d.short)).toEqual(["ش", "ی", "د", "س", "چ", "پ", "ج"]);
    expect(weekdayNames("fa", 6)[0].long).toBe("شنبه");
  });
  test("English and Dutch weeks start on Monday", () => {
    expect(weekdayNames("en", 1).map((d) => d.long)).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    expect(weekdayNames("nl", 1)[0].long).toBe("maandag");
  });
});

describe("numbers and times", () => {
  test("Persian digits in fa, Western digits elsewhere", () => {
    expect(formatNumber("fa", 1405, { useGrouping: false })).toBe("۱۴۰۵");
    expect(formatNumber("en", 1405, { useGrouping: false })).toBe("1405");
    expect(formatTime("fa", "09:30")).toBe("۰۹:۳۰");
    expect(formatTime("nl", "09:30")).toBe("09:30");
    expect(localizeDigits("fa", "M-00017")).toBe("M-۰۰۰۱۷");
  });
});

describe("isolateLatinRuns", () => {
  const LRI = "\u2066";
  const PDI = "\u2069";
  test("isolates postcodes, phone numbers, addresses and amounts inside Persian text", () => {
    expect(isolateLatinRuns("آمستردام، کد پستی 1017 BZ")).toBe(`آمستردام، کد پستی ${LRI}1017 BZ${PDI}`);
    expect(isolateLatinRuns("+31 20 808 1234")).toBe(`${LRI}+31 20 808 1234${PDI}`);
    expect(isolateLatinRuns("مثلاً name@company.com")).toBe(`مثلاً ${LRI}name@company.com${PDI}`);
    expect(isolateLatinRuns("بیش از €5M+ سرمایه")).toBe(`بیش از ${LRI}€5M+${PDI} سرمایه`);
  });
  test("keeps sentence punctuation and brackets outside, and leaves plain numbers alone", () => {
    expect(isolateLatinRuns("به hello@bridgewise.eu بنویسید.")).toBe(`به ${LRI}hello@bridgewise.eu${PDI} بنویسید.`);
    expect(isolateLatinRuns("اعلان‌ها (F8)")).toBe(`اعلان‌ها (${LRI}F8${PDI})`);
    expect(isolateLatinRuns("ظرف 10 هفته")).toBe("ظرف 10 هفته");
    expect(isolateLatinRuns("بدون لاتین")).toBe("بدون لاتین");
  });
  test("leaves {{placeholders}} for a later interpolation alone", () => {
    expect(isolateLatinRuns("{{date}}، ساعت {{time}} به وقت آمستردام")).toBe("{{date}}، ساعت {{time}} به وقت آمستردام");
  });
  test("is idempotent", () => {
    const once = isolateLatinRuns("کد پستی 1017 BZ");
    expect(isolateLatinRuns(once)).toBe(once);
  });
});

describe("textDirection", () => {
  test("reads a mail's words, not the reply marks before them", () => {
    expect(textDirection("Re: درخواست شما دربارهٔ ویزای استارتاپ (E-00001)")).toBe("rtl");
    expect(textDirection("RE: Fwd: AW: پاسخ")).toBe("rtl");
    expect(textDirection("Re[2]: Your enquiry")).toBe("ltr");
    expect(textDirection("(E-00001) درخواست")).toBe("ltr");
    expect(textDirection("\u2066E-00001\u2069 ممنون")).toBe("ltr");
    expect(textDirection("Antw: Je aanvraag")).toBe("ltr");
    expect(textDirection("ممنون! I attached it")).toBe("rtl");
    expect(textDirection("Re: 12345")).toBeNull();
    expect(textDirection("")).toBeNull();
  });
});
