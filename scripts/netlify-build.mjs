// Netlify's build command: refuse to deploy production without its secrets, apply the migrations,
// build the static site, then bundle each function into one file (netlify.toml deploys those).
import { spawnSync } from "node:child_process";
import { createDb } from "../db/client.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { assertProductionReady, serverEnv } from "../src/config/server.ts";
import { buildAndSwap } from "./build.mjs";
import { bundleFunctions, FUNCTIONS_DIST } from "./lib/bundle-functions.mjs";

// The production checks (src/config/server.ts): every missing variable named at once, and any
// wrong value, stop the deploy before anything is built.
let env;
try {
  assertProductionReady();
  env = serverEnv();
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error} (Site settings → Environment variables)`);
  process.exit(1);
}

if (env.DATABASE_URL) {
  const db = createDb(env.DATABASE_URL);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Migrations applied: ${applied.join(", ")}` : "Database schema is up to date.");
  } finally {
    await db.destroy();
  }
}

// The same build as `npm run build`: the copy check, then the site into dist/ (netlify.toml publishes it).
const check = spawnSync(process.execPath, ["scripts/check-copy.ts", "--before-build"], { stdio: "inherit" });
if (check.status !== 0) process.exit(check.status ?? 1);
const built = buildAndSwap(process.cwd());
if (built !== 0) process.exit(built);

const bundles = await bundleFunctions();
console.log(
  `Functions bundled into ${FUNCTIONS_DIST}: ${bundles.map((b) => `${b.name} ${(b.bytes / 1024).toFixed(0)} KB`).join(", ")}`,
);
