import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every browser test runs under a watch on the site's strict Content-Security-Policy: a violation on
 * any page the test opens in its context (the page's `securitypolicyviolation` event, or a refusal
 * only the console logs) fails that test. So "no CSP violation" is checked on every page and in every
 * state the tests reach (islands loaded, dialogs open, forms sent), not on a list of pages.
 * `cspViolations` holds what was seen, for the test that provokes one on purpose (csp.spec.ts).
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context }, use, testInfo) => {
      const seen: string[] = [];
      await context.exposeBinding("__reportCspViolation", (_source, text: string) => {
        seen.push(text);
      });
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
          const report = (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation;
          report(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      const watch = (page: Page) =>
        page.on("console", (message) => {
          if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
        });
      context.pages().forEach(watch);
      context.on("page", watch);
      await use(seen);
      expect(seen, `Content-Security-Policy violations during "${testInfo.title}"`).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
