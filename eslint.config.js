// ESLint: TypeScript, React hooks, accessibility of JSX, and Astro components. Formatting is
// Prettier's job (npm run check runs both).
import js from "@eslint/js";
import astro from "eslint-plugin-astro";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const SERVER_CONFIG = {
  regex: "^(#server/|(\\.\\./)+server/)",
  message: "Server configuration stays on the server: pass the value in, or move a public fact to src/config/site.ts.",
};
const NODE = { regex: "^node:", message: "src/shared also runs in the browser: no Node modules." };
const NODE_BUILTINS = ["fs", "path", "os", "url", "crypto", "child_process", "http", "https", "net"].map((name) => ({
  name,
  message: "src/shared also runs in the browser: no Node modules.",
}));
const UI = {
  regex: "^(react|react-dom|astro)([/:]|$)",
  message: "src/shared holds facts and rules, no UI framework.",
};
const DATABASE = { regex: "^(#db/|(\\.\\./)+db/)", message: "src/shared does not reach into the database layer." };
const FUNCTIONS = {
  regex: "^(#functions/|(\\.\\./)+functions/)",
  message: "The functions import db/ and src/shared, never the other way round.",
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
    },
  },
  {
    // Migrations are typed Kysely<any> on purpose (they must not depend on today's table types).
    files: ["db/migrations/**", "db/migrate.ts", "**/*.test.ts", "functions/_tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // Boundaries between the layers (docs/architecture.md). Each block lists everything its folder may
  // not import, because a later block replaces an earlier one's no-restricted-imports.
  {
    // What the site and islands are built from never reads the server's configuration (secrets,
    // database and mail settings): a browser bundle must not carry it.
    files: ["src/**/*.{ts,tsx,astro}"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [SERVER_CONFIG] }] },
  },
  {
    // src/shared runs in the browser, the build and the functions alike: plain TypeScript and zod,
    // no Node module, no UI framework, no database or function code.
    files: ["src/shared/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: NODE_BUILTINS, patterns: [SERVER_CONFIG, NODE, UI, DATABASE, FUNCTIONS] },
      ],
    },
  },
  {
    // The database layer serves the functions and scripts; it never calls back into the functions.
    files: ["db/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [FUNCTIONS] }] },
  },
);
