// `npm run dev`: Astro's dev server (live preview of src/, always the current sources, never dist/)
// with the functions answering /api/* in the same process (scripts/runtime/vite-functions.mjs), on the
// embedded database (or DATABASE_URL). Fully offline.
import { spawn } from "node:child_process";
import { prepareRuntime } from "./runtime.mjs";

const runtime = await prepareRuntime();

const child = spawn(process.execPath, ["node_modules/astro/bin/astro.mjs", "dev", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", async (code) => {
  await runtime.close();
  process.exit(code ?? 0);
});
