// Netlify's build command: refuse to deploy production without its secrets, apply the migrations,
// build the static site, then bundle each function into one file (netlify.toml deploys those).
import { spawnSync } from "node:child_process";
import { createDb } from "../db/client.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { buildAndSwap } from "./build.mjs";
import { bundleFunctions, FUNCTIONS_DIST } from "./lib/bundle-functions.mjs";

const production = process.env.CONTEXT === "production";
const missing = ["DATABASE_URL", "JWT_SECRET", "SMTP_URL"].filter((name) => !process.env[name]);
if (production && missing.length) {
  console.error(`Production deploys need ${missing.join(", ")} (Site settings → Environment variables).`);
  process.exit(1);
}
if ((process.env.JWT_SECRET ?? "x".repeat(32)).length < 32) {
  console.error("JWT_SECRET must be at least 32 characters.");
  process.exit(1);
}

if (process.env.DATABASE_URL) {
  const db = createDb(process.env.DATABASE_URL);
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
