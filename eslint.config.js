// ESLint: TypeScript, React hooks, accessibility of JSX, and Astro components. Formatting is
// Prettier's job (npm run check runs both).
import js from "@eslint/js";
import astro from "eslint-plugin-astro";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// One rule (docs/architecture.md#boundaries): imports point down the layers. src/shared is the
// ground; src/config and src/i18n (public facts and translations) stand on it; server/ stands on
// those; db/ on server/; functions/ on db/. The site (pages, components, layouts, lib, stores,
// data) stands on src/shared, src/config and src/i18n. scripts/ and e2e/ run the product and may
// import any of it; tools/ (the developer's desk) may import anything; nothing that runs the
// product imports tools/, and only test setup imports scripts/.
const ref = (folder) => `^(#${folder}/|(\\.\\.?/)+(\\.\\./)*${folder}/)`;
const rule = (folder, message) => ({ regex: ref(folder), message });
const SERVER_CONFIG = rule(
  "server",
  "Server configuration stays on the server: pass the value in, or move a public fact to src/config/site.ts.",
);
const NODE = { regex: "^node:", message: "src/shared also runs in the browser: no Node modules." };
const NODE_BUILTINS = ["fs", "path", "os", "url", "crypto", "child_process", "http", "https", "net"].map((name) => ({
  name,
  message: "src/shared also runs in the browser: no Node modules.",
}));
const UI = {
  regex: "^(react|react-dom|astro)([/:]|$)",
  message: "src/shared holds facts and rules, no UI framework.",
};
const DATABASE = rule("db", "Only functions/ (and scripts/) reach into the database layer.");
const FUNCTIONS = rule("functions", "The functions import db/ and src/shared, never the other way round.");
const TOOLS = rule("tools", "tools/ is the developer's desk: nothing that runs the product imports it.");
const SCRIPTS = rule("scripts", "scripts/ run the product; the product does not import them (test setup excepted).");
const E2E = rule("e2e", "e2e/ holds the browser specs: nothing imports them.");
/** The site's own folders: only the site imports them. */
const SITE = {
  regex:
    "^(#src/(components|pages|layouts|lib|stores|data|styles|assets)/|(\\.\\./)+(src/)?(components|pages|layouts|lib|stores|data|styles|assets)/)",
  message:
    "The site's components, pages and islands are built on src/shared, src/config and src/i18n; nothing below imports them.",
};
/**
 * The same for the functions, but for the team's profiles (src/data/team.json): the consultants a
 * visitor books are the team members, and the booking reads their languages and services there. The
 * content editor adds a member, checked by the file's own schema (src/data/content-schema.ts).
 */
const SITE_BUT_TEAM = {
  regex:
    "^(#src/(components|pages|layouts|lib|stores|styles|assets)/|#src/data/(?!(?:team\\.json|content-schema\\.ts)$)|(\\.\\./)+(src/)?(components|pages|layouts|lib|stores|data|styles|assets)/)",
  message: SITE.message,
};
/** src/config and src/i18n: what the server may read of src/ besides src/shared. */
const SITE_FACTS = {
  regex: "^(#config/|#src/(config|i18n)/|(\\.\\./)+(src/)?(config|i18n)/)",
  message: "src/shared imports only itself and zod: move the fact into src/shared, or pass it in.",
};
const CONFIG = {
  regex: "^(#config/|#src/config/|(\\.\\./)+(src/)?config/)",
  message: "db/ reads server/ and src/shared only: the limits are in src/shared/limits.ts.",
};
const I18N = {
  regex: "^(#src/i18n/|(\\.\\./)+(src/)?i18n/)",
  message: "db/ and server/ do not translate: the functions do (src/i18n/plain.ts).",
};
export default tseslint.config(
  {
    ignores: [
      "dist/",
      ".astro/",
      ".netlify/",
      ".data/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench-results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mjs,js}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Form fields, headers and calendar text are checked for control characters on purpose.
      "no-control-regex": "off",
    },
  },
  {
    files: ["**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      // `role="list"` on a list without bullets is deliberate: Safari drops the list semantics otherwise.
      "jsx-a11y/no-redundant-roles": ["error", { ul: ["list"], ol: ["list"] }],
      // A labelled region that scrolls must be reachable by the keyboard to be scrolled (axe's
      // scrollable-region-focusable): tabIndex 0 on role="region" is that, not a stray tab stop.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"] }],
    },
  },
  {
    // Migrations are typed Kysely<any> on purpose (they must not depend on today's table types).
    files: ["db/migrations/**", "db/migrate.ts", "**/*.test.ts", "functions/_tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // Boundaries between the layers (docs/architecture.md#boundaries). Each block lists everything its
  // folder may not import, because a later block replaces an earlier one's no-restricted-imports.
  // Tests may import what they exercise; test setup (db/test-setup.ts) starts scripts/' database.
  ...[
    // The site: never the server's configuration (a browser bundle must not carry secrets).
    ["src/**/*.{ts,tsx,astro}", [SERVER_CONFIG, DATABASE, FUNCTIONS, TOOLS, SCRIPTS, E2E]],
    // src/config and src/i18n: public facts and translations, read by the server too.
    ["src/{config,i18n}/**/*.ts", [SERVER_CONFIG, DATABASE, FUNCTIONS, TOOLS, SCRIPTS, E2E, SITE]],
    // src/shared runs in the browser, the build and the functions alike: plain TypeScript and zod.
    ["src/shared/**/*.ts", [SERVER_CONFIG, NODE, UI, DATABASE, FUNCTIONS, TOOLS, SCRIPTS, E2E, SITE, SITE_FACTS]],
    // The server's configuration: the environment, on src/shared and the public site facts.
    ["server/**/*.ts", [DATABASE, FUNCTIONS, TOOLS, SCRIPTS, E2E, SITE, I18N]],
    // The database layer serves the functions and scripts; it never calls back into them.
    ["db/**/*.ts", [FUNCTIONS, TOOLS, SCRIPTS, E2E, SITE, CONFIG, I18N]],
    // The functions: db/, server/, src/shared, src/config, src/i18n.
    ["functions/**/*.ts", [TOOLS, SCRIPTS, E2E, SITE_BUT_TEAM]],
    // scripts/ runs the product (npm start, the build, benchmarks, drills): anything but the desk's tools,
    // except the build steps that run the desk's checks (the copy check before a build).
    ["scripts/**/*.{mjs,ts}", [TOOLS, E2E]],
    // The browser specs drive the built site; they may read src/ and scripts/ but not the desk's tools.
    ["e2e/**/*.ts", [TOOLS]],
    // The desk's tools may import anything of the product, but no browser spec.
    ["tools/**/*.{ts,astro}", [E2E]],
  ].map(([files, patterns]) => ({
    files: [files],
    ignores: ["**/*.test.ts", "functions/_tests/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: patterns.includes(NODE) ? NODE_BUILTINS : [], patterns }],
    },
  })),
  {
    // Test setup starts the embedded PostgreSQL of scripts/ for the test run, and records statements
    // in the shapes the PostgreSQL 15 pass compares (scripts/test/database-tests.mjs).
    files: ["db/test-setup.ts", "db/test-callers.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [FUNCTIONS, TOOLS, E2E, SITE, CONFIG, I18N] }] },
  },
  {
    // The build steps that run the copy check (tools/copy-check) before a build.
    files: ["scripts/build/check-copy.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [E2E] }] },
  },
);
