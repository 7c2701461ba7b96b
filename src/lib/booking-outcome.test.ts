import { describe, expect, test } from "vitest";
import en from "#src/i18n/locales/en.json" with { type: "json" };
import fa from "#src/i18n/locales/fa.json" with { type: "json" };
import { ApiError } from "./api-client.ts";
import { bookedText, bookingFailureText } from "./booking-outcome.ts";

describe("the booking confirmation", () => {
  const booked = { date: "2026-12-01", time: "10:00", place: "video" as const };

  test("names the consultant and the place", () => {
    const text = bookedText("en", en.contact.toast, en.contact.booking.placeSentence, {
      ...booked,
      consultant: "Nasrin Farahani",
    });
    expect(text).toBe(
      "Tuesday, 1 December 2026 at 10:00, Amsterdam time. We will confirm it by email. With Nasrin Farahani, by video.",
    );
  });

  test("without a consultant (an older server, whoever is free) it still says how", () => {
    const text = bookedText("en", en.contact.toast, en.contact.booking.placeSentence, { ...booked, consultant: null });
    expect(text.endsWith("We meet by video.")).toBe(true);
  });

  test("in Persian, with Persian digits", () => {
    const text = bookedText("fa", fa.contact.toast, fa.contact.booking.placeSentence, {
      ...booked,
      place: "phone",
      consultant: "کاوه تهرانی",
    });
    expect(text).toContain("۱۰:۰۰");
    expect(text).toContain("با کاوه تهرانی، به‌صورت تلفنی.");
    expect(text).not.toMatch(/[0-9]/);
  });
});

describe("a refused booking", () => {
  const labels = {
    errorMessage: "error",
    slotTaken: "taken",
    dayFull: "full",
    tooManyPending: "pending",
    validation: { name: "name", email: "email", phone: "phone" },
    guard: en.formGuard as never,
  };

  test("a taken slot and a full day have their own texts", () => {
    expect(bookingFailureText(new ApiError("timeSlotOccupied", 409, null), labels)).toBe("taken");
    expect(bookingFailureText(new ApiError("dailyLimitReached", 409, null), labels)).toBe("full");
  });

  test("anything else is the general error", () => {
    expect(bookingFailureText(new Error("offline"), labels)).toBe("error");
  });
});
