// The one measure of a function's cold start, shared by `npm run bench:api` and `npm run rehearse:deploy`:
// a fresh Node process imports the function's deployed entry and answers one representative first
// request; the time from import to the answer's last byte. Login is asked for an unknown user with
// no password, so its deliberate bcrypt time is not part of it; contact and booking answer before
// their emails go out (context.waitUntil), as on Netlify.
import { spawn, spawnSync } from "node:child_process";
import { issueFormToken } from "#functions/_lib/forms/form-guard.ts";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "#shared/form-guard.ts";
import { ROUTES, withQuery } from "#shared/routes.ts";

/**
 * What a real page sends with a public form besides its fields: a "form shown at" token issued a few
 * seconds ago, signed with `jwtSecret` (the JWT_SECRET the function will run with), and the empty
 * honeypot. Each token is good for one post.
 */
export function formFields(jwtSecret) {
  const saved = process.env.JWT_SECRET;
  process.env.JWT_SECRET = jwtSecret;
  try {
    return { [TOKEN_FIELD]: issueFormToken(Date.now() - 5_000), [HONEYPOT_FIELD]: "" };
  } finally {
    if (saved === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = saved;
  }
}

/**
 * A representative first request per function (no bcrypt: its cost is not a cold start's); the
 * public forms' posts carry a fresh form token signed with `env.JWT_SECRET`.
 */
export function firstRequest(name, env = process.env) {
  const post = (path, body) => ({ path, method: "POST", body: JSON.stringify(body) });
  const form = (fields) => ({ ...fields, ...formFields(env.JWT_SECRET ?? "") });
  switch (name) {
    case "contact":
      return post(
        ROUTES.contact,
        form({
          firstName: "Leila",
          lastName: "Cold Start",
          email: "cold-start@example.com",
          company: "Parsian Logistics",
          service: "startup-visa",
          message: "We would like to open a European office in Amsterdam next year.",
          language: "fa",
        }),
      );
    case "meetings":
      return { path: withQuery(ROUTES.meetings.availableSlots, { date: nextWeekday(3) }) };
    case "login":
      return post(ROUTES.login, { username: "cold-start-nobody" });
    case "newsletter":
      return post(ROUTES.newsletter, form({ email: "cold-start@example.com" }));
    case "admin-meetings":
      return { path: ROUTES.admin.meetings };
    case "admin-availability":
      return { path: ROUTES.admin.availability };
    case "meeting-manage":
      return { path: ROUTES.meetings.manage };
    case "admin-submissions":
      return { path: ROUTES.admin.enquiries };
    case "logout":
      return post(ROUTES.logout, {});
    default:
      return { path: `/api/${name}` };
  }
}

/** The next date (yyyy-MM-dd) after today falling on ISO weekday `weekday` (1 = Monday). */
export function nextWeekday(weekday) {
  const date = new Date();
  do date.setUTCDate(date.getUTCDate() + 1);
  while (((date.getUTCDay() + 6) % 7) + 1 !== weekday);
  return date.toISOString().slice(0, 10);
}

/**
 * Runs `entry` (a module whose default export is a function handler) once in a fresh Node process:
 * { ms (import to answer), importMs, cpuMs (the process's CPU time over the same span: what a
 * loaded machine inflates least), status, headers }. `request` defaults to firstRequest(name). Throws with the child's
 * output when it fails.
 */
export function coldStart(options) {
  const { args, env, name } = coldStartCommand(options);
  const result = spawnSync(process.execPath, args, { env, encoding: "utf8", timeout: 60_000 });
  return coldStartResult(name, result.status, result.stdout, result.stderr);
}

/** coldStart without blocking this process (for when it serves the function something: a mail server, a proxy). */
export function coldStartAsync(options) {
  const { args, env, name } = coldStartCommand(options);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(coldStartResult(name, code, stdout, stderr));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function coldStartResult(name, status, stdout, stderr) {
  const line = stdout
    .trim()
    .split("\n")
    .find((l) => l.startsWith('{"ms"'));
  if (status !== 0 || !line) throw new Error(`cold start of ${name} failed:\n${stdout}\n${stderr}`);
  return JSON.parse(line);
}

function coldStartCommand({ name, entry, env, request = firstRequest(name, env), deployContext = "production" }) {
  // The request exists before the clock starts, as on Netlify, whose runtime builds it before it
  // calls the function (building the first Request loads Node's fetch classes: ~50 ms that no
  // function's code can change).
  const script = `
    const request = ${JSON.stringify(request)};
    const req = new Request("http://localhost:8888" + request.path, {
      method: request.method ?? "GET",
      headers: { "content-type": "application/json", origin: "http://localhost:8888", "accept-language": "nl" },
      body: request.body,
    });
    new Response("");
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const { default: handler } = await import(${JSON.stringify(entry)});
    const importMs = performance.now() - t0;
    const pending = [];
    const context = {
      ip: "203.0.113.9", geo: {}, params: {}, deploy: { context: ${JSON.stringify(deployContext)} },
      waitUntil(promise) { pending.push(promise); },
    };
    const res = await handler(req, context);
    await res?.text(); // a scheduled function answers nothing
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(JSON.stringify({ ms, importMs, cpuMs, status: res?.status, headers: res ? Object.fromEntries(res.headers) : {} }));
    // Work handed to waitUntil finishes before the process goes, as Netlify lets it.
    await Promise.allSettled(pending);
    process.exit(0);`;
  return { name, args: ["--input-type=module", "-e", script], env: { SMTP_URL: "", ...env } };
}

/** The median of a few numbers. */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
