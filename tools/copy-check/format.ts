/** The copy check's report as text for a terminal: each problem with its file, line and the line itself. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { englishLanguageName } from "#shared/languages.ts";
import type { CopyReport, Problem } from "./copy-check.ts";
import { TRANSLATED } from "#functions/_lib/texts/review.ts";

export interface FormatOptions {
  root: string;
  color?: boolean;
  /** Only errors (what stops the build); warnings are counted, not listed. */
  errorsOnly?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "src/i18n/locales/fa.json, line 506: Remove the comma after the last entry." */
export const headline = (p: Problem) => `${p.file}${p.line ? `, line ${p.line}` : ""}: ${p.message}`;

export function formatReport(report: CopyReport, { root, color = false, errorsOnly = false }: FormatOptions): string {
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const lines: string[] = [];
  const cache = new Map<string, string[]>();
  const fileLines = (file: string) => {
    if (!cache.has(file)) {
      const full = path.join(root, file);
      cache.set(file, existsSync(full) ? readFileSync(full, "utf8").split(/\r?\n/) : []);
    }
    return cache.get(file)!;
  };
  const errors = report.problems.filter((p) => p.severity === "error");
  const warnings = report.problems.filter((p) => p.severity === "warning");
  const shown = errorsOnly ? errors : [...errors, ...warnings];
  for (const p of shown) {
    const mark = p.severity === "error" ? paint("31;1", "✗") : paint("33;1", "!");
    lines.push(`${mark} ${paint("1", `${p.file}${p.line ? `, line ${p.line}` : ""}`)}: ${p.message}`);
    const source = p.line ? fileLines(p.file) : [];
    if (p.line && source.length >= p.line) {
      const text = source[p.line - 1];
      const shortened = text.length > 140 ? `${text.slice(0, 137)}…` : text;
      lines.push(paint("2", `    ${String(p.line).padStart(4)} │ `) + shortened.trimEnd());
    }
    lines.push("");
  }
  const summary: string[] = [];
  if (errors.length)
    summary.push(paint("31;1", plural(errors.length, "error")) + " (the build stops until they are fixed)");
  if (warnings.length)
    summary.push(
      paint("33;1", plural(warnings.length, "warning")) +
        (errorsOnly
          ? " (run npm run check:copy to see them)"
          : " (the site builds, but npm test fails until they are fixed)"),
    );
  if (report.fixed) summary.push(`${plural(report.fixed, "Arabic letter")} replaced by Persian ones`);
  if (!errors.length && !warnings.length) summary.push(paint("32;1", "✓ copy is in order"));
  lines.push(`Copy check: ${summary.join("; ")} — ${Math.round(report.durationMs)} ms.`);
  if (report.reviews.length) {
    const by = (lang: string) => report.reviews.filter((r) => r.lang === lang).length;
    const parts = TRANSLATED.filter((l) => by(l)).map((l) => `${by(l)} ${englishLanguageName(l)}`);
    lines.push(
      `${parts.join(" and ")} ${report.reviews.length === 1 ? "text waits" : "texts wait"} for review because the English changed: npm run check:copy -- --review`,
    );
  }
  return lines.join("\n");
}
