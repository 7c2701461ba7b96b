// `npm run test:fuzz [seconds]`: the hostile-input test (functions/_tests/never-500.test.ts) for a
// longer run than CI's fixed seed: a random seed (or FUZZ_SEED) for the given seconds (default 600).
// A failure prints its seed and case number; FUZZ_SEED=<seed> replays the run.
import { spawnSync } from "node:child_process";

const seconds = Number(process.argv[2] ?? process.env.FUZZ_SECONDS ?? 600);
const result = spawnSync("node_modules/.bin/vitest", ["run", "functions/_tests/never-500.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_SECONDS: String(seconds), ASTRO_TELEMETRY_DISABLED: "1" },
});
process.exit(result.status ?? 1);
