// `npm run build` (after `check:copy --before-build`): builds the static site into .dist-next/ and
// swaps it into dist/ only when the build succeeds. A failed build (a mistake in a component, a
// broken import…) leaves the previous dist/ in place, so `npm start` keeps serving the last good site.
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Runs `astro build --outDir <next>` in `root` and swaps the result into `<root>/dist`.
 * Returns the exit code: 0 when dist/ holds the new build, non-zero when it still holds the old one.
 */
export function buildAndSwap(root = process.cwd(), { args = [], log = console } = {}) {
  const dist = path.join(root, "dist");
  const next = path.join(root, ".dist-next");
  const previous = path.join(root, ".dist-previous");
  rmSync(next, { recursive: true, force: true });
  const astro = path.join(root, "node_modules", "astro", "bin", "astro.mjs");
  const result = spawnSync(process.execPath, [astro, "build", "--outDir", next, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0 || !existsSync(path.join(next, "index.html"))) {
    rmSync(next, { recursive: true, force: true });
    log.error(
      `\nThe build failed (see above). ${existsSync(dist) ? "dist/ still holds the previous build." : "There is no earlier build in dist/."}`,
    );
    return result.status || 1;
  }
  // Two renames on one file system: dist/ is never half-written.
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(dist)) renameSync(dist, previous);
  renameSync(next, dist);
  rmSync(previous, { recursive: true, force: true });
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.exit(buildAndSwap(process.cwd(), { args: process.argv.slice(2) }));
