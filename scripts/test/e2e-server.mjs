// The browser tests' server: `npm start` (scripts/runtime/start.mjs), on an embedded database whose
// admin (ADMIN_USERNAME) was made first with a fixture hash at cost 4, as the API tests make theirs
// (functions/_tests/fixture-users.ts). `npm start` then finds the admin with that password and keeps
// it ("unchanged"), so each of the browser tests' many sign-ins and step-ups as the admin costs a
// cost-4 comparison instead of 0.3–1.3 s of bcrypt at cost 12, which the server runs one at a time
// (db/admins.ts, FairQueue). Every hash the server makes itself stays at cost 12: an accepted
// invitation, a changed password; an invited account signs in against those. Cost 12 is the subject
// of db/admins.integration.test.ts and functions/_tests/admin.test.ts, not of a browser test.
// Used by playwright.config.ts and e2e/content-editor.spec.ts; same environment as `npm start`.
import { createDb } from "#db/client.ts";
import { migrateToLatest } from "#db/migrate.ts";
import { findUserByUsername } from "#db/users.repository.ts";
import { fixtureAdmin } from "#functions/_tests/fixture-users.ts";
import { startEmbeddedDatabase } from "../runtime/embedded-db.mjs";

const { DATA_DIR, ADMIN_USERNAME, ADMIN_PASSWORD } = process.env;
if (!DATA_DIR || !ADMIN_USERNAME || !ADMIN_PASSWORD || process.env.DATABASE_URL)
  throw new Error("e2e-server.mjs: set DATA_DIR, ADMIN_USERNAME and ADMIN_PASSWORD, and no DATABASE_URL");

const embedded = await startEmbeddedDatabase({ dataDir: DATA_DIR });
try {
  const db = createDb(embedded.url);
  try {
    await migrateToLatest(db);
    if (!(await findUserByUsername(db, ADMIN_USERNAME))) await fixtureAdmin(db, ADMIN_USERNAME, ADMIN_PASSWORD);
  } finally {
    await db.destroy();
  }
} finally {
  await embedded.close();
}

await import("../runtime/start.mjs");
