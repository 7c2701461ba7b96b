// `npm run dev`: `astro dev` with @netlify/vite-plugin (functions, redirects and headers inside Vite),
// the embedded database (or DATABASE_URL), and functions rebundled on change. Kept offline:
// telemetry is off, and because the plugin does not forward its `geolocation` option, Netlify's
// geolocation cache is seeded with a neutral location so it never calls its lookup service.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { prepareRuntime } from "./lib/runtime.mjs";
import { watchFunctions } from "./lib/bundle-functions.mjs";

const statePath = ".netlify/state.json";
mkdirSync(".netlify", { recursive: true });
const state = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : {};
state.geolocation = {
  data: {
    city: "",
    country: { code: "", name: "" },
    subdivision: { code: "", name: "" },
    longitude: 0,
    latitude: 0,
    timezone: "Europe/Amsterdam",
  },
  // Far in the future, so the cache never expires.
  timestamp: Date.now() + 10 * 365 * 24 * 3600 * 1000,
};
writeFileSync(statePath, JSON.stringify(state, null, 2));

const runtime = await prepareRuntime();
const stopWatching = await watchFunctions();

const child = spawn(process.execPath, ["node_modules/astro/bin/astro.mjs", "dev", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", NETLIFY_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", async (code) => {
  await stopWatching();
  await runtime.close();
  process.exit(code ?? 0);
});
