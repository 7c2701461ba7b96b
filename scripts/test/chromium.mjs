// Where Chromium lives. Playwright cannot download its own browsers here, so every browser tool
// uses the system Chromium (Debian's packages), or CHROMIUM_PATH when set.
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
/** Debian's `chromium-headless-shell`: the same Blink as `chromium`, without the browser around it. */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/** Path of a Chromium executable, or null when none is installed. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/**
 * The browser of the browser tests: Chromium's headless shell when it is installed (what Playwright
 * itself runs for headless Chromium, and faster: docs/benchmarks.md), the full Chromium otherwise. CHROMIUM_PATH, when set, wins. Lighthouse and the other
 * benchmarks keep the full browser (findChromium), whose figures they report.
 */
export function findTestBrowser() {
  if (!process.env.CHROMIUM_PATH && existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return findChromium();
}

/** Like findChromium, but throws a message that says how to install it. */
export function chromiumPath() {
  const found = findChromium();
  if (!found) {
    throw new Error(
      "Chromium not found. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu) or set CHROMIUM_PATH.",
    );
  }
  return found;
}
