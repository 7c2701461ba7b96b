import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { expect, type Page } from "@playwright/test";

/** What "accessible" means here: WCAG 2.2 A and AA, as axe-core tags its rules. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe on the page (or only inside `include`, a CSS selector) and fails with each violation's
 * id, impact, help and target selectors in the message.
 *
 * In axe's legacy mode: one `axe.run` in the page, reaching into its same-origin frames (the text
 * editor's preview), where the default opens a blank page for each run to merge the frames' results,
 * which only cross-origin frames need (this site has none). The same rules and results (an image
 * without alt and a nameless button in a frame are found either way), in half the time: 2.3–8.4 s
 * a run against 5.2–22.8 s (docs/benchmarks.md, "What axe costs").
 *
 * In that mode the page asks each frame by message, and a frame that has not answered axe's "ping"
 * within `pingWaitTime` (500 ms by default) is left out without a word: on a busy CI machine the
 * nameless button of a11y.spec.ts's frame went unfound (axe-core's `_sendCommandToFrame`). Every frame
 * here is a page of this site, into which the builder injects axe before the run, so each answers; it
 * is given 30 s to. And each frame has axe before the run: the builder gives its injection into a frame
 * 1 s and, past it, goes on without a word, so on a busy machine a frame may have had no axe to answer
 * the ping at all (a11y.spec.ts's frame test failed so with 3 workers). `injectEverywhere` puts axe into
 * every frame that lacks it, with no such limit; the builder is given nothing to inject again.
 */
export async function expectNoViolations(page: Page, include?: string) {
  await injectEverywhere(page);
  let builder = new AxeBuilder({ page, axeSource: ALREADY_INJECTED })
    .options({ pingWaitTime: 30_000 })
    .withTags(WCAG_TAGS)
    .setLegacyMode(true);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const report = violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}${n.failureSummary ? ` — ${n.failureSummary.split("\n").slice(1).join("; ").trim()}` : ""}`).join("\n")}`,
    )
    .join("\n");
  expect(
    violations.map((v) => v.id),
    `axe violations on ${page.url()}${include ? ` in ${include}` : ""}:\n${report}`,
  ).toEqual([]);
}

/** What the builder injects: nothing, as `injectEverywhere` has put axe into every frame. */
const ALREADY_INJECTED = ";";

/** Puts axe into the page and each of its frames that lacks it, waiting as long as that takes. */
async function injectEverywhere(page: Page) {
  for (const frame of page.frames()) {
    try {
      if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(axe.source);
    } catch (error) {
      // A frame that went away meanwhile has nothing to check.
      if (!frame.isDetached()) throw error;
    }
  }
}
