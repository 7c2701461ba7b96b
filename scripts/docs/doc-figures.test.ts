/**
 * The figures the documentation states, compared with the code that sets them, where that is cheap:
 * a doc that says "two workers" while the code has four fails here. Each check names the phrase it
 * expects, built from the code's value, and the file it expects it in.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { LIMITS, type Rate } from "#shared/limits.ts";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from "#functions/_lib/http/http.ts";
import { DELIVERY_WORKERS } from "#functions/_lib/mail/delivery.ts";
import { SCHEDULE } from "#functions/_lib/schedule.ts";
import { serverEnv } from "#server/config.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const doc = (file: string) => readFileSync(path.join(ROOT, file), "utf8").replace(/\s+/g, " ");
const docs = {
  readme: doc("README.md"),
  operator: doc("docs/operator.md"),
  architecture: doc("docs/architecture.md"),
  api: doc("docs/api.md"),
};

const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A window as the docs write it after a count: "an hour", "a day", "in 15 minutes". */
function per(windowSeconds: number): string {
  if (windowSeconds === HOUR) return "an hour";
  if (windowSeconds === DAY) return "a day";
  if (windowSeconds % HOUR === 0) return `in ${windowSeconds / HOUR} hours`;
  return `in ${windowSeconds / MINUTE} minutes`;
}
const rate = (r: Rate, noun = "") => `${r.limit}${noun ? ` ${noun}` : ""} ${per(r.windowSeconds)}`;

/** The limits table of docs/operator.md: a row's label and the default it must show. */
const limitRows: [string, string][] = [
  [
    "enquiries per client address (soft)",
    `${LIMITS.enquiryPerAddress.soft} ${per(LIMITS.enquiryPerAddress.windowSeconds)}`,
  ],
  [
    "enquiries per client address (flood)",
    `${LIMITS.enquiryPerAddress.flood} ${per(LIMITS.enquiryPerAddress.windowSeconds)}`,
  ],
  [
    "acknowledgements per recipient",
    `${LIMITS.acknowledgementPerRecipient.limit} in ${LIMITS.acknowledgementPerRecipient.windowSeconds / HOUR} hours`,
  ],
  ["bookings per client address", rate(LIMITS.bookingPerAddress)],
  ["pending meetings per email address", `${LIMITS.pendingMeetingsPerEmail} (not confirmed, today on)`],
  ["newsletter sign-ups per client address", rate(LIMITS.newsletterPerAddress)],
  ["newsletter sign-ups per mailbox", `${rate(LIMITS.newsletterConfirmationPerMailbox)} mail a confirmation`],
  ["manage-link changes per meeting", rate(LIMITS.manageChanges.perMeeting)],
  ["manage-link changes per client address", rate(LIMITS.manageChanges.perAddress)],
  ["circuit breaker: all public submissions", rate(LIMITS.breaker)],
  ["login: one username from one address", rate(LIMITS.login.perPair, "failures")],
  ["login: one username, all addresses", rate(LIMITS.login.perUsername, "failures")],
  ["login: one account, all addresses", rate(LIMITS.login.perAccount, "tries")],
  ["login: second-factor codes per account", rate(LIMITS.login.codesPerAccount, "failures")],
  [
    "login: bcrypt comparisons per process",
    `${LIMITS.login.comparisons.perAddress} per address, ${LIMITS.login.comparisons.waiting} waiting`,
  ],
  ["login: one address, all usernames", rate(LIMITS.login.perAddress, "tries")],
  [
    '"form shown at" token',
    `${LIMITS.formToken.minAgeSeconds} s to ${LIMITS.formToken.maxAgeSeconds / HOUR} hours old, once`,
  ],
];

describe("docs/operator.md's limits table shows src/shared/limits.ts", () => {
  test.each(limitRows)("%s: %s", (label, figure) => {
    expect(docs.operator).toMatch(new RegExp(`\\| ${escape(label)} +\\| ${escape(figure)} +\\|`));
  });
});

describe("the README's security summary shows src/shared/limits.ts", () => {
  const { enquiryPerAddress: enquiry, login } = LIMITS;
  test.each([
    `past ${enquiry.soft} enquiries ${per(enquiry.windowSeconds)}`,
    `past ${enquiry.flood} refused`,
    `bookings ${rate(LIMITS.bookingPerAddress)} per address and ${LIMITS.pendingMeetingsPerEmail} pending per email address`,
    `newsletter sign-ups ${rate(LIMITS.newsletterPerAddress)} per address and confirmations ${rate(LIMITS.newsletterConfirmationPerMailbox)} per mailbox`,
    `manage-link changes ${rate(LIMITS.manageChanges.perMeeting)} per meeting and ${rate(LIMITS.manageChanges.perAddress)} per address`,
    `sign-in ${login.perPair.limit} failures per username and address ${per(login.perPair.windowSeconds)}`,
    `past ${login.perUsername.limit} ${per(login.perUsername.windowSeconds)} for a username only an address's first ${login.perPairUnderAttack} tries`,
    `at most ${login.perAccount.limit} tries ${per(login.perAccount.windowSeconds)} per account`,
    `${login.codesPerAccount.limit} wrong second-factor codes per account ${per(login.codesPerAccount.windowSeconds)}`,
    `past ${LIMITS.breaker.limit} public submissions ${per(LIMITS.breaker.windowSeconds)}`,
    `${MAX_BODY_BYTES / 1024} KB at most`,
  ])("%s", (phrase) => {
    expect(docs.readme).toContain(phrase);
  });
});

describe("figures of the code in the docs", () => {
  test("email delivery's workers per process", () => {
    expect(docs.operator).toContain(`runs on ${WORDS[DELIVERY_WORKERS]} workers per process`);
  });

  test("the body limits: size and nesting", () => {
    expect(docs.api).toContain(`a body over ${MAX_BODY_BYTES / 1024} KB 413`);
    expect(docs.operator).toContain(`${MAX_JSON_DEPTH} levels`);
    expect(docs.architecture).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  test("the schedule: each run's cron and interval as the docs state them", () => {
    const [frequent, daily] = SCHEDULE;
    expect(frequent.cron).toBe(`*/${frequent.everyMs / 60_000} * * * *`);
    const minutes = `every ${frequent.everyMs / 60_000} minutes`;
    expect(docs.operator).toContain(`| \`frequent\` | \`outbox-retry\` | \`${frequent.cron}\` | ${minutes} |`);
    expect(docs.api).toContain(`\`outbox-retry\` (${minutes})`);
    expect(docs.architecture).toContain(`\`functions/outbox-retry.ts\`, ${minutes}`);
    const [minute, hour] = daily.cron.split(" ");
    const at = `${hour.padStart(2, "0")}:${minute.padStart(2, "0")}`;
    expect(docs.operator).toContain(`| \`daily\` | \`retention\` | \`${daily.cron}\` | daily at ${at} |`);
    expect(docs.api).toContain(`\`retention\` (daily, ${at} UTC)`);
    expect(docs.operator).toContain(`\`functions/retention.ts\` (${at} UTC)`);
  });

  test("the local mail interval", () => {
    const mail = SCHEDULE.flatMap((r) => r.jobs).find((j) => j.name === "outbox")!.localEveryMs! / 1000;
    expect(docs.operator).toContain(`mail every ${mail} s`);
    expect(docs.operator).toContain(`every ${mail} s by the local runtime's timer`);
    expect(docs.architecture).toContain(`process, every ${mail} seconds`);
  });

  test("CALENDAR_STALE_HOURS' default", () => {
    const saved = process.env.CALENDAR_STALE_HOURS;
    delete process.env.CALENDAR_STALE_HOURS;
    try {
      const hours = serverEnv().CALENDAR_STALE_HOURS;
      expect(docs.operator).toContain(`After \`CALENDAR_STALE_HOURS\` (${hours} by default)`);
      expect(docs.architecture).toContain(`after \`CALENDAR_STALE_HOURS\` (${hours})`);
    } finally {
      if (saved !== undefined) process.env.CALENDAR_STALE_HOURS = saved;
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
