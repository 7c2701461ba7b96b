/**
 * The small server-rendered pages of the no-JavaScript form path, in the visitor's language:
 *
 * - confirm: the post had no valid "form shown at" token (the pages are static, so a plain form
 *   cannot carry one). The page repeats the visitor's fields as hidden inputs with a fresh token and
 *   one button, so a person sends the same form again with one click and loses nothing;
 * - too many (429, Retry-After) and refused (403, a post from another site).
 *
 * No script; one inline style, allowed by its hash in the page's own Content-Security-Policy
 * (netlify.toml's headers never reach a function's answer).
 */
import { createHash } from "node:crypto";
import { site } from "#config/site.ts";
import { localePath, plainT } from "#src/i18n/plain.ts";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "#shared/form-guard.ts";
import { DEFAULT_LANGUAGE, dirOf, isLanguage, type Language } from "#shared/languages.ts";
import { honeypotFilled, issueFormToken } from "./form-guard.ts";
import { readForm, requireSameOrigin } from "../http/http.ts";
import { escapeHtml } from "../mail/templates.ts";

const STYLE = `
body{margin:0;min-height:100vh;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic","Noto Sans",sans-serif;color:#0f172a;background:linear-gradient(#eff6ff,#fff 60%)}
main{box-sizing:border-box;max-width:36rem;margin:0 auto;padding:4rem 1.25rem}
h1{margin:0;font-size:1.75rem;line-height:1.25;color:#0a1b3a}
p{color:#475569}
dl{margin:1.5rem 0;padding:1rem 1.25rem;border:1px solid #e2e8f0;border-radius:1rem;background:#fff}
dt{font-size:.875rem;font-weight:600;color:#0a1b3a}
dd{margin:0 0 .75rem;white-space:pre-wrap;overflow-wrap:anywhere}
dd:last-child{margin-bottom:0}
button,.link{display:inline-block;margin-top:1rem;border:0;border-radius:.75rem;padding:.75rem 1.5rem;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button{background:#1f56b8;color:#fff}
button:hover{background:#1a4594}
button:focus-visible,.link:focus-visible{outline:3px solid #2f6fd6;outline-offset:2px}
.link{color:#1a4594;padding-inline:0}
a{color:#1a4594}
.hp{position:absolute;inset-inline-start:-10000px;width:1px;height:1px;overflow:hidden}
`.trim();
const STYLE_HASH = `sha256-${createHash("sha256").update(STYLE).digest("base64")}`;

const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": `default-src 'none'; style-src '${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

function page(lang: Language, title: string, body: string, status: number, headers: Record<string, string> = {}) {
  const html = `<!doctype html>
<html lang="${lang}" dir="${dirOf(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | ${escapeHtml(site.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: { ...HEADERS, ...headers } });
}

/** The honeypot, as the static forms have it: hidden from sight, from the tab order and from assistive technology. */
function honeypotHtml(lang: Language): string {
  const tr = plainT(lang);
  return `<div class="hp" aria-hidden="true"><label for="hp-${HONEYPOT_FIELD}">${escapeHtml(tr("formGuard.honeypotLabel"))}</label><input id="hp-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value=""></div>`;
}

export interface ConfirmPage {
  lang: Language;
  /** Where the form posts (its own endpoint). */
  action: string;
  /** The fields to send again, as posted (the token and honeypot are added here). */
  fields: Record<string, string>;
  /** What the visitor sees of them: label and value. */
  summary: [label: string, value: string][];
  /** The button's text. */
  submit: string;
  /** The form's anchor on the home page, for "back". */
  formAnchor: string;
}

/** 200: "one more step", with a fresh token and the visitor's fields. */
export function confirmPage({ lang, action, fields, summary, submit, formAnchor }: ConfirmPage): Response {
  const tr = plainT(lang);
  const hidden = Object.entries(fields)
    .filter(([name]) => name !== TOKEN_FIELD && name !== HONEYPOT_FIELD)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const rows = summary
    .filter(([, value]) => value)
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd dir="auto">${escapeHtml(value)}</dd>`)
    .join("\n");
  return page(
    lang,
    tr("formGuard.confirmTitle"),
    `<h1>${escapeHtml(tr("formGuard.confirmTitle"))}</h1>
<p>${escapeHtml(tr("formGuard.confirmText"))}</p>
<dl>
${rows}
</dl>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<input type="hidden" name="${TOKEN_FIELD}" value="${escapeHtml(issueFormToken())}">
${honeypotHtml(lang)}
<button type="submit">${escapeHtml(submit)}</button>
</form>
<p><a class="link" href="${escapeHtml(`${localePath(lang, "/")}#${formAnchor}`)}">${escapeHtml(tr("formGuard.backToForm"))}</a></p>`,
    200,
  );
}

/** 429 with Retry-After: the visitor's network sent too much; what to do instead. */
export function tooManyPage(
  lang: Language,
  retryAfter: string,
  formAnchor: string,
  /** "paused": the newsletter's sign-ups wait for the breaker (GUARD_CODES.paused). */
  reason: "tooMany" | "paused" = "tooMany",
): Response {
  const tr = plainT(lang);
  return page(
    lang,
    tr(`formGuard.${reason}Title`),
    `<h1>${escapeHtml(tr(`formGuard.${reason}Title`))}</h1>
<p>${escapeHtml(tr(`formGuard.${reason}Text`, { email: site.email })).replace(
      escapeHtml(site.email),
      `<a href="mailto:${escapeHtml(site.email)}">${escapeHtml(site.email)}</a>`,
    )}</p>
<p><a class="link" href="${escapeHtml(`${localePath(lang, "/")}#${formAnchor}`)}">${escapeHtml(tr("formGuard.backToForm"))}</a></p>`,
    429,
    { "Retry-After": retryAfter },
  );
}

/** 403: a post from another site. */
export function refusedPage(lang: Language, formAnchor: string): Response {
  const tr = plainT(lang);
  return page(
    lang,
    tr("formGuard.refusedTitle"),
    `<h1>${escapeHtml(tr("formGuard.refusedTitle"))}</h1>
<p>${escapeHtml(tr("formGuard.refusedText"))}</p>
<p><a class="link" href="${escapeHtml(`${localePath(lang, "/")}#${formAnchor}`)}">${escapeHtml(tr("formGuard.backToForm"))}</a></p>`,
    403,
  );
}

/** What a no-JavaScript form post may go on with, once `openPlainPost` let it through. */
export interface PlainPost<Result extends string> {
  fields: URLSearchParams;
  lang: Language;
  /** The 303 to one of the form's result pages, `/{lang}/{results}/{page}/`. */
  to: (page: Result | "error") => Response;
}

/**
 * The start every no-JavaScript form post shares: its fields and page language, then the refusals
 * that need no more than that (another site's post: the refused page; an unreadable body or a
 * filled honeypot: the error page). Answers `{ answer }` when the post ends here.
 */
export async function openPlainPost<Result extends string>(
  req: Request,
  results: string,
  formAnchor: string,
): Promise<{ answer: Response } | PlainPost<Result>> {
  const form = await readForm(req).catch((error: unknown) => error);
  const fields = form instanceof URLSearchParams ? form : new URLSearchParams();
  const named = fields.get("lang");
  const lang = isLanguage(named) ? named : DEFAULT_LANGUAGE;
  const to = (page: Result | "error") =>
    new Response(null, {
      status: 303,
      headers: { Location: `/${lang}/${results}/${page}/`, "Cache-Control": "no-store" },
    });
  try {
    requireSameOrigin(req);
  } catch {
    return { answer: refusedPage(lang, formAnchor) };
  }
  if (!(form instanceof URLSearchParams)) return { answer: to("error") };
  if (honeypotFilled(fields.get(HONEYPOT_FIELD))) return { answer: to("error") };
  return { fields, lang, to };
}
