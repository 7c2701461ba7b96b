// What revocable sessions cost each admin request (bench:api's "Admin session check" section).
// Before them, a request's check read the user (one primary-key SELECT) to compare the session
// version; now it reads the session row joined to its user (one primary-key SELECT with a join)
// and, at most once a minute per session, writes its last use. Measured in this process against
// the given database, one call after another (no load), each part's median over `rounds` × `calls` calls made in turn:
// - "user read (before)": findUserById, the whole database work of the old check;
// - "session check (now)": requireAdmin as a request calls it, its signature already remembered;
// - "last-seen write": touchSession, paid once a minute per signed-in session.
import { median } from "./cold-start.mjs";

/** µs per call of each part, and the per-request difference the sessions table adds. */
export async function measureSessionCheck(db, { calls = 500, rounds = 5 } = {}) {
  const { ensureAdmin } = await import("#db/admins.ts");
  const { findUserById } = await import("#db/users.repository.ts");
  const { touchSession } = await import("#db/sessions.repository.ts");
  const { requireAdmin, SESSION_COOKIE, signSession } = await import("#functions/_lib/auth/auth.ts");
  const { user } = await ensureAdmin(db, "bench-sessions", "bench-sessions-password");
  const full = await findUserById(db, user.id);
  const token = await signSession(full, { device: "bench", browser: "", place: "" }, db);
  const sid = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).sid;
  const req = new Request("http://localhost/api/admin/stats", { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  await requireAdmin(db, req); // warms the remembered signature and the connection

  // Interleaved, one call of each in turn, so a shared machine's load drifts on both alike.
  const parts = {
    before: () => findUserById(db, user.id),
    now: () => requireAdmin(db, req),
    touch: () => touchSession(db, sid),
  };
  const samples = { before: [], now: [], touch: [] };
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < calls; i++)
      for (const [name, fn] of Object.entries(parts)) {
        const start = process.hrtime.bigint();
        await fn();
        samples[name].push(Number(process.hrtime.bigint() - start) / 1000);
      }
  }
  const [before, now, touch] = ["before", "now", "touch"].map((name) => +median(samples[name]).toFixed(1));
  return {
    "user read (before), µs": before,
    "session check (now), µs": now,
    "added per request, µs": +(now - before).toFixed(1),
    "last-seen write (once a minute), µs": touch,
  };
}
