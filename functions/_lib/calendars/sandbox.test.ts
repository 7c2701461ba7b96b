/**
 * Issue 29: one line of a feed hung the server. `RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` matches
 * no day, and ical.js 2.2.1 looks for the next one forever inside one step; on the server's thread
 * no request was answered again until the process was killed. In the worker the server's thread
 * stays free, and the walk is cut off at the time limit.
 */
import { describe, expect, test } from "vitest";
import { FeedError } from "./fetch.ts";
import { expandInWorker } from "./sandbox.ts";

const calendar = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...events, "END:VCALENDAR"].join("\r\n");
const event = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20261101T000000Z", ...lines, "END:VEVENT"].join("\r\n");
const window = {
  from: Date.parse("2026-11-30T00:00:00Z"),
  to: Date.parse("2027-01-31T00:00:00Z"),
  timeZone: "Europe/Amsterdam",
};

/** The longest the test's own thread went without running a 10 ms timer while `work` ran. */
async function longestStall<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    stallMs = Math.max(stallMs, at - last);
    last = at;
  }, 10);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { result, stallMs };
}

describe("expandInWorker", () => {
  test("a never-matching rule (the issue's 228-byte feed) is cut off at the time limit, the server's thread free meanwhile", async () => {
    const ics = calendar(
      event(
        "UID:never@test",
        "SUMMARY:Never",
        "DTSTART:20261201T090000Z",
        "DTEND:20261201T100000Z",
        "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      ),
    );
    const started = performance.now();
    const { result, stallMs } = await longestStall(expandInWorker({ ics, ...window }, 1_500));
    const ms = performance.now() - started;
    expect(result.status).toBe("rejected");
    const error = (result as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(FeedError);
    expect(error.message).toBe("reading it took longer than 1.5 s (stopped in the repeating event “Never”)");
    // The worker's start (loading ical.js) counts apart: seconds on a busy machine, at most 20 s.
    expect(ms).toBeLessThan(22_000);
    // Before: no timer ran again until the process was killed.
    expect(stallMs).toBeLessThan(1_000);
  });

  test("a readable feed answers its busy times and event count", async () => {
    const ics = calendar(event("UID:a@test", "DTSTART:20261201T090000Z", "DTEND:20261201T100000Z"));
    await expect(expandInWorker({ ics, ...window })).resolves.toEqual({
      events: 1,
      intervals: [{ start: Date.parse("2026-12-01T09:00:00Z"), end: Date.parse("2026-12-01T10:00:00Z") }],
      owners: [],
    });
  });

  test("text that is not iCalendar, and a feed past the step budget, fail with their reason", async () => {
    await expect(expandInWorker({ ics: "<html>nope</html>", ...window })).rejects.toThrow(
      "not a readable iCalendar file",
    );
    const ics = calendar(event("UID:s@test", "DTSTART:19700101T000000Z", "DURATION:PT1S", "RRULE:FREQ=SECONDLY"));
    await expect(expandInWorker({ ics, ...window, maxSteps: 10_000 })).rejects.toThrow("more than 10,000 steps");
  });
});
