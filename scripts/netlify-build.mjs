// Netlify's build command: refuse to deploy production without its secrets, apply the migrations,
// build the static site, then bundle each function into one file (netlify.toml deploys those).
import { spawnSync } from "node:child_process";
import { createDb } from "../db/client.ts";
import { migrateToLatest } from "../db/migrate.ts";
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

const build = spawnSync(process.execPath, ["node_modules/astro/bin/astro.mjs", "build"], {
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const bundles = await bundleFunctions();
console.log(
  `Functions bundled into ${FUNCTIONS_DIST}: ${bundles.map((b) => `${b.name} ${(b.bytes / 1024).toFixed(0)} KB`).join(", ")}`,
);
