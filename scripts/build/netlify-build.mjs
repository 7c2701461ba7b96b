// Netlify's build command: refuse to deploy production without its secrets, apply the migrations
// (production only, over the direct URL), build the static site, then bundle each function
// (netlify.toml deploys those).
import { spawnSync } from "node:child_process";
import { createDb } from "#db/client.ts";
import { migrateToLatest } from "#db/migrate.ts";
import { assertProductionReady, migrationUrl, poolerWarning, serverEnv } from "#server/config.ts";
import { buildAndSwap } from "./build.mjs";
import { bundleFunctions, FUNCTIONS_DIST } from "./bundle-functions.mjs";

// The production checks (server/config.ts): every missing variable named at once, and any
// wrong value, stop the deploy before anything is built.
let env;
try {
  assertProductionReady();
  env = serverEnv();
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error} (Site settings → Environment variables)`);
  process.exit(1);
}

// Migrations run in the production context only: a deploy preview builds a pull request's code, and
// its migrations (drops and renames included) must not reach production's database before the merge
// while production still runs the old code. A preview migrates only when MIGRATE_PREVIEW_DATABASE=true
// says its database is its own (a Neon branch per preview, docs/operator.md "Deploying to Netlify").
const context = env.CONTEXT ?? "dev";
const mayMigrate = context === "production" || env.MIGRATE_PREVIEW_DATABASE === "true";
const warning = poolerWarning();
if (warning) console.warn(`Warning: ${warning}`);
let url;
try {
  url = migrationUrl();
} catch (error) {
  if (mayMigrate) {
    console.error(`${error.message} (Site settings → Environment variables)`);
    process.exit(1);
  }
}
if (url && mayMigrate) {
  // Over the direct connection (DATABASE_URL_UNPOOLED): the migrator's session lock needs one.
  const db = createDb(url);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Migrations applied: ${applied.join(", ")}` : "Database schema is up to date.");
  } finally {
    await db.destroy();
  }
} else if (url) {
  console.log(
    `Migrations skipped: this is a ${context} build. Set MIGRATE_PREVIEW_DATABASE=true for this context ` +
      "only if its database is its own (a Neon branch), never production's.",
  );
}

// The same build as `npm run build`: the copy check, then the site into dist/ (netlify.toml publishes it).
// `--no-site` leaves the site out: `npm run rehearse:deploy` builds everything else.
if (!process.argv.includes("--no-site")) {
  const check = spawnSync(process.execPath, ["scripts/build/check-copy.ts", "--before-build"], { stdio: "inherit" });
  if (check.status !== 0) process.exit(check.status ?? 1);
  const built = buildAndSwap(process.cwd());
  if (built !== 0) process.exit(built);
}

// `--no-functions` leaves the bundling out: `npm run rehearse:deploy`'s production build, whose
// bundles would be its preview build's byte for byte (they follow the sources alone, not the context
// or the database). The process still ends on its own, so a handle the migrations left open hangs it.
if (!process.argv.includes("--no-functions")) {
  const bundles = await bundleFunctions();
  console.log(
    `Functions bundled into ${FUNCTIONS_DIST}: ${bundles.map((b) => `${b.name} ${(b.bytes / 1024).toFixed(0)} KB`).join(", ")}`,
  );
}
