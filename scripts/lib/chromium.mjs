// Where Chromium lives. Playwright cannot download its own browsers here, so every browser tool
// uses the system Chromium (Debian's package), or CHROMIUM_PATH when set.
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** Path of a Chromium executable, or null when none is installed. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
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
