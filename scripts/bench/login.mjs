// npm run bench:login — a benchmark, not a test: the owner's sign-in while others guess passwords.
//
// Runs the real login function in-process (bcrypt at its configured cost) against a fresh embedded
// PostgreSQL: 50 parallel wrong logins from two client addresses (25 usernames each, under every
// per-address limit) and, at the same moment, the owner's correct password from a third address.
// Prints how long the owner's answer took and what the 50 got. Target: the owner within 2 s.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedDatabase } from "../runtime/embedded-db.mjs";

const TARGET_MS = 2000;
const dataDir = mkdtempSync(path.join(tmpdir(), "bench-login-"));
let database;
let exitCode = 0;
try {
  database = await startEmbeddedDatabase({ dataDir, log: {} });
  process.env.DATABASE_URL = database.url;
  process.env.JWT_SECRET ??= "bench-login-secret-bench-login-secret-0123";
  process.env.DATA_DIR = dataDir;
  const { createDb } = await import("../../db/client.ts");
  const { migrateToLatest } = await import("../../db/migrate.ts");
  const { ensureAdmin } = await import("../../db/admins.ts");
  const { closeDb } = await import("../../db/client.ts");
  const login = (await import("../../functions/login.ts")).default;
  const db = createDb(database.url);
  await migrateToLatest(db);
  const PASSWORD = "the owner's own long password";
  await ensureAdmin(db, "owner", PASSWORD);
  await db.destroy();

  const post = (username, password, ip) =>
    login(
      new Request("http://localhost:8888/api/login", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:8888" },
        body: JSON.stringify({ username, password }),
      }),
      { ip, params: {}, geo: {} },
    );
  const started = performance.now();
  const attack = Array.from({ length: 50 }, (_, i) =>
    post(`guess${i}`, "wrong password", i % 2 ? "198.51.100.1" : "198.51.100.2").then((r) => r.status),
  );
  const owner = post("owner", PASSWORD, "203.0.113.9").then((r) => ({
    status: r.status,
    ms: performance.now() - started,
  }));
  const [statuses, mine] = await Promise.all([Promise.all(attack), owner]);
  const count = (s) => statuses.filter((x) => x === s).length;
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
  console.log(
    `Owner's sign-in under 50 parallel wrong logins: ${mine.status} in ${Math.round(mine.ms)} ms (target ≤ ${TARGET_MS} ms)`,
  );
  console.log(
    `The 50: ${count(401)} evaluated (401), ${count(429)} refused before bcrypt (429), all done in ${Math.round(performance.now() - started)} ms`,
  );
  if (mine.status !== 200 || mine.ms > TARGET_MS) exitCode = 1;
  await closeDb();
} finally {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
