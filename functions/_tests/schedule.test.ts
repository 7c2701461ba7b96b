/**
 * The one schedule (functions/_lib/schedule.ts): production's scheduled functions and `npm start`'s
 * timers run the same jobs, at the same intervals; and under a running local server
 * (scripts/runtime/runtime.mjs, scripts/runtime/server.mjs) a busy event added to a connected CalDAV calendar
 * (radicale) or to a BUSY_CALENDARS feed hides its slot at the next scheduled refresh, with nobody
 * pressing Refresh.
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setupApiDatabase } from "./harness.ts";
import { startRadicale } from "./radicale-server.ts";
import { localTimers, SCHEDULE } from "../_lib/schedule.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";
import { ROUTES } from "#shared/routes.ts";
import { prepareRuntime } from "#scripts/runtime/runtime.mjs";
import { startServer } from "#scripts/runtime/server.mjs";

const FUNCTIONS = path.resolve(import.meta.dirname, "..");
const MINUTE = 60_000;

/** The interval of the two cron shapes the schedule uses: every N minutes, or once a day. */
function cronEveryMs(cron: string): number {
  const [minute, hour, ...rest] = cron.split(" ");
  expect(rest, cron).toEqual(["*", "*", "*"]);
  const every = /^\*\/(\d+)$/.exec(minute);
  if (every && hour === "*") return Number(every[1]) * MINUTE;
  expect(minute, cron).toMatch(/^\d+$/);
  expect(hour, cron).toMatch(/^\d+$/);
  return 24 * 60 * MINUTE;
}

/** Every function in functions/ with a `config.schedule`: its file, cron and handler. */
async function scheduledFunctions() {
  const found: { file: string; cron: string; runName: unknown; source: string }[] = [];
  for (const file of readdirSync(FUNCTIONS).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(path.join(FUNCTIONS, file), "utf8");
    if (!/\bschedule\s*:/.test(source)) continue;
    const module = (await import(path.join(FUNCTIONS, file))) as {
      default: { runName?: string };
      config: { schedule?: string };
    };
    if (module.config.schedule)
      found.push({ file, cron: module.config.schedule, runName: module.default.runName, source });
  }
  return found;
}

describe("one schedule for production and npm start", () => {
  test("each scheduled Netlify function runs one run of the schedule, on that run's cron, written in its source", async () => {
    const functions = await scheduledFunctions();
    expect(functions.map((f) => f.file).sort()).toEqual(SCHEDULE.map((r) => r.fn).sort());
    for (const run of SCHEDULE) {
      const fn = functions.find((f) => f.file === run.fn)!;
      expect(fn.runName, `${run.fn} runs the "${run.name}" run`).toBe(run.name);
      expect(fn.cron, `${run.fn}'s config.schedule`).toBe(run.cron);
      // Netlify reads the cron from the text, not from a value computed at run time.
      expect(fn.source).toContain(`schedule: ${JSON.stringify(run.cron)}`);
      expect(cronEveryMs(run.cron), `${run.name}: everyMs is its cron's interval`).toBe(run.everyMs);
    }
  });

  test("npm start's timers run every job of the schedule, once, at its production interval (mail faster)", () => {
    const local = localTimers().flatMap(({ everyMs, jobs }) => jobs.map((job) => ({ name: job.name, everyMs })));
    const production = SCHEDULE.flatMap((run) => run.jobs.map((job) => ({ name: job.name, everyMs: run.everyMs })));
    expect(local.map((j) => j.name).sort()).toEqual(production.map((j) => j.name).sort());
    expect(new Set(production.map((j) => j.name)).size, "no job in two runs").toBe(production.length);
    for (const job of production) {
      const here = local.find((j) => j.name === job.name)!;
      const declared = SCHEDULE.flatMap((r) => r.jobs).find((j) => j.name === job.name)!.localEveryMs;
      expect(here.everyMs, job.name).toBe(declared ?? job.everyMs);
    }
    // The jobs the issues name, with the calendars on production's 15 minutes; the morning digest
    // runs before the outbox, so a digest queued at 08:30 leaves in the same run.
    expect(production.map((j) => j.name).sort()).toEqual([
      "calendars",
      "counters",
      "digests",
      "outbox",
      "reminders",
      "retention",
    ]);
    const frequent = SCHEDULE.find((r) => r.name === "frequent")!.jobs.map((j) => j.name);
    expect(frequent.indexOf("digests")).toBeLessThan(frequent.indexOf("outbox"));
    // Every 15 minutes from the hour (UTC), so a run falls on 08:30 Amsterdam in winter and in summer.
    expect(SCHEDULE.find((r) => r.name === "frequent")!.cron).toBe("*/15 * * * *");
    expect(local.find((j) => j.name === "calendars")!.everyMs).toBe(15 * MINUTE);
  });

  test("a test's SCHEDULE_INTERVAL_MS runs every job at that interval", () => {
    expect(localTimers(1500)).toEqual([{ everyMs: 1500, jobs: SCHEDULE.flatMap((r) => r.jobs) }]);
  });
});

// Under a running local server, with every job every 2 s.
const INTERVAL_MS = 2000;
const USER = "team";
const PASSWORD = "correct-horse-7";
// Monday 15 March 2027, 09:00 in Amsterdam; the slots asked for are on Wednesday 17 March.
const NOW = "2027-03-15T08:00:00Z";
const DAY = "2027-03-17";

const vcalendar = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Bridgewise tests//EN", ...lines, "END:VCALENDAR", ""].join("\r\n");
/** One busy event on DAY from `from` to `to` (UTC, hhmm). */
const busy = (uid: string, from: string, to: string) =>
  vcalendar(
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20270101T000000Z",
    "SUMMARY:Busy",
    `DTSTART:${DAY.replaceAll("-", "")}T${from}00Z`,
    `DTEND:${DAY.replaceAll("-", "")}T${to}00Z`,
    "END:VEVENT",
  );

describe("under npm start, feeds are refreshed on the schedule", () => {
  let t: Awaited<ReturnType<typeof setupApiDatabase>>;
  let radicale: Awaited<ReturnType<typeof startRadicale>>;
  let runtime: Awaited<ReturnType<typeof prepareRuntime>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let envFeed: http.Server;
  let envFeedBody = vcalendar();
  let publishDir = "";
  const saved = { ...process.env };
  // Each run of the calendars job under the server: when it started, and whether it has ended. A
  // run in flight when the interval comes round makes the schedule skip that tick, so how many
  // milliseconds the next refresh takes depends on the machine's load; which run hides a slot does not.
  const calendarsJob = SCHEDULE.flatMap((r) => r.jobs).find((j) => j.name === "calendars")!;
  const calendarsRun = calendarsJob.run;
  const calendarRuns: { started: number; ended: boolean }[] = [];

  beforeAll(async () => {
    calendarsJob.run = async (db, log) => {
      const entry = { started: Date.now(), ended: false };
      calendarRuns.push(entry);
      try {
        await calendarsRun.call(calendarsJob, db, log);
      } finally {
        entry.ended = true;
      }
    };
    radicale = await startRadicale(USER, PASSWORD);
    await radicale.dav("MKCALENDAR", `${radicale.base}/${USER}/work/`);
    // The deploy's BUSY_CALENDARS feed: a plain ICS address whose text the test changes.
    envFeed = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/calendar" }).end(envFeedBody),
    );
    await new Promise<void>((resolve) => envFeed.listen(0, "127.0.0.1", resolve));

    t = await setupApiDatabase();
    Object.assign(process.env, {
      RATE_LIMIT: "off",
      CALENDAR_FETCH_ALLOW: "loopback",
      BOOKING_NOW: NOW,
      SCHEDULE_INTERVAL_MS: String(INTERVAL_MS),
      BUSY_CALENDARS: `http://127.0.0.1:${(envFeed.address() as AddressInfo).port}/team.ics`,
    });
    const quiet = { log: () => {}, error: (...args: unknown[]) => console.error(...args) };
    runtime = await prepareRuntime({ log: quiet as unknown as Console });
    publishDir = mkdtempSync(path.join(tmpdir(), "schedule-site-"));
    server = await startServer({ port: 0, publishDir, log: quiet });
  }, 120_000);

  afterAll(async () => {
    calendarsJob.run = calendarsRun;
    await server?.close();
    await runtime?.close();
    await new Promise((resolve) => envFeed?.close(resolve));
    await radicale?.stop();
    if (publishDir) rmSync(publishDir, { recursive: true, force: true });
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    await t?.destroy();
  });

  const slots = async () => {
    const res = await fetch(`${server.url}${ROUTES.meetings.availableSlots}?date=${DAY}`);
    return ((await res.json()) as { data: string[] }).data;
  };
  /**
   * Whether `time` is still offered once the first run of the calendars job that started after this
   * call has ended (the limit is for a run that never comes, not for speed).
   */
  async function offeredAfterNextRefresh(time: string): Promise<boolean> {
    const after = Date.now();
    await expect
      .poll(() => calendarRuns.some((r) => r.started >= after && r.ended), { timeout: 60_000, interval: 100 })
      .toBe(true);
    return (await slots()).includes(time);
  }

  test("a busy event added to a connected CalDAV calendar hides its slot at the next scheduled refresh", async () => {
    const admin = await createUser(t.db, "schedule-admin", DUMMY_HASH);
    const cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
    const added = await fetch(`${server.url}${ROUTES.admin.calendars}`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ name: "Team", url: `${radicale.base}/${USER}/work/`, username: USER, password: PASSWORD }),
    });
    expect(added.status, await added.clone().text()).toBe(201);
    // 10:00–11:00 Amsterdam (CET) is 09:00–10:00 UTC.
    expect(await slots()).toContain("10:00");
    await radicale.dav("PUT", `${radicale.base}/${USER}/work/meeting.ics`, busy("meeting@test", "0900", "1000"));
    // The schedule's next run reads the calendar: nobody presses Refresh.
    expect(await offeredAfterNextRefresh("10:00")).toBe(false);
    expect(await slots()).not.toContain("10:30");
  });

  test("a busy event added to a BUSY_CALENDARS feed hides its slot too", async () => {
    expect(await slots()).toContain("14:00");
    envFeedBody = busy("env@test", "1300", "1400"); // 14:00–15:00 Amsterdam
    expect(await offeredAfterNextRefresh("14:00")).toBe(false);
  });
});
