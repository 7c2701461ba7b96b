// `npm run docs`: writes the generated parts of the documentation, today the environment variables'
// tables in docs/operator.md and .env.example, from the configuration (scripts/docs/env-docs.mjs).
// scripts/docs/docs.test.ts fails when the committed files differ from what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedDocs } from "./env-docs.mjs";

const root = path.resolve(import.meta.dirname, "../..");
for (const [file, text] of Object.entries(await generatedDocs(root))) {
  const target = path.join(root, file);
  if (readFileSync(target, "utf8") === text) continue;
  writeFileSync(target, text);
  console.log(`Wrote ${file}`);
}
