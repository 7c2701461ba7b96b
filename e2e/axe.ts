import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** What "accessible" means here: WCAG 2.2 A and AA, as axe-core tags its rules. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe on the page (or only inside `include`, a CSS selector) and fails with each violation's
 * id, impact, help and target selectors in the message.
 */
export async function expectNoViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
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
