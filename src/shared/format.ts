/**
 * Numbers, dates and times as a visitor reads them, in every place the site shows one: pages,
 * islands and the emails. Persian visitors live in the Solar Hijri (Jalali) calendar and read
 * Persian digits, so in `fa` a date is the Jalali one followed by the Gregorian one, both in
 * Persian digits: "سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)". `Intl` does the calendar conversion.
 *
 * Dates are `yyyy-MM-dd` calendar days and times `HH:mm` wall-clock times: they are formatted as
 * UTC so that no time zone moves them to another day.
 */
import { LANGUAGE_INFO, type Language } from "./languages.ts";

/** The `Intl` locale of a language (languages.ts: British English, Dutch, Persian of Iran). */
const intl = (lang: Language) => LANGUAGE_INFO[lang].intl;
/** Whether a language reads the Solar Hijri (Jalali) calendar: its dates are the Jalali one, then the Gregorian one. */
const readsJalali = (lang: Language) => LANGUAGE_INFO[lang].calendar === "persian";
const formats = new Map<string, Intl.DateTimeFormat>();
/** A cached `Intl.DateTimeFormat` in UTC. */
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options })));
  return format;
}
const partsOf = (format: Intl.DateTimeFormat, date: Date) =>
  Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value])) as Record<string, string>;

/** A `yyyy-MM-dd` day as a Date at UTC midnight. */
export function utcDay(isoDate: string): Date {
  const [y, m, d] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

const PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹";

/** Western digits in `text` written as the language writes them (Persian digits in `fa`). */
export function localizeDigits(lang: Language, text: string): string {
  return LANGUAGE_INFO[lang].digits === "persian" ? text.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)]) : text;
}

/** Number formatters by language and options, made once each (building one costs more than using it). */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number in the language's digits and separators: `formatNumber("fa", 1405)` is "۱۴۰۵". */
export function formatNumber(lang: Language, n: number, options: Intl.NumberFormatOptions = {}): string {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intl(lang), options)));
  return format.format(n);
}

/**
 * A value interpolated into a translation as the language writes it: a number in the language's
 * digits, without grouping (a year or a step stays "۱۴۰۵", "۴"); anything else as it is.
 * Every translate function applies it (i18n/plain.ts), so "گام {{number}}" reads "گام ۱".
 */
export function interpolatedValue(lang: string, value: unknown): unknown {
  if (typeof value !== "number" || !(lang in LANGUAGE_INFO)) return value;
  return formatNumber(lang as Language, value, { useGrouping: false });
}

/** The comma that joins the parts of a text composed in code: Persian writes "،", not ",". */
export const commaOf = (lang: Language) => (LANGUAGE_INFO[lang].script === "persian" ? "،" : ",");

/** A wall-clock time `HH:mm` in the language's digits: "09:30", "۰۹:۳۰". */
export function formatTime(lang: Language, time: string): string {
  return localizeDigits(lang, time);
}

export type DateStyle = "long" | "short";

/**
 * A calendar day for a reader of `lang`:
 * - long: "Tuesday, 24 November 2026" · "dinsdag 24 november 2026" · "سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)"
 * - short: "Tue 24 Nov 2026" · "di 24 nov 2026" · "۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)"
 */
export function formatDate(lang: Language, isoDate: string, style: DateStyle = "long"): string {
  const day = utcDay(isoDate);
  if (!readsJalali(lang)) {
    return dateFormat(intl(lang), {
      weekday: style,
      day: "numeric",
      month: style,
      year: "numeric",
    }).format(day);
  }
  return `${jalaliDate(day, style)} (${persianGregorianDate(day)})`;
}

/** "سه‌شنبه ۳ آذر ۱۴۰۵" (long) or "۳ آذر ۱۴۰۵" (short). Built from parts: ICU's own pattern puts the year first. */
function jalaliDate(day: Date, style: DateStyle): string {
  const p = partsOf(
    dateFormat("fa-IR-u-ca-persian", { weekday: "long", day: "numeric", month: "long", year: "numeric" }),
    day,
  );
  const date = `${p.day} ${p.month} ${p.year}`;
  return style === "long" ? `${p.weekday} ${date}` : date;
}

/** The Gregorian date in Persian words and digits: "۲۴ نوامبر ۲۰۲۶". */
function persianGregorianDate(day: Date): string {
  const p = partsOf(dateFormat("fa-IR-u-ca-gregory", { day: "numeric", month: "long", year: "numeric" }), day);
  return `${p.day} ${p.month} ${p.year}`;
}

/** The day, month and year of a `yyyy-MM-dd` day in the Gregorian or the Persian (Jalali) calendar. */
export function calendarParts(
  isoDate: string,
  calendar: "gregory" | "persian",
): { year: number; month: number; day: number } {
  if (calendar === "gregory") {
    const [year, month, day] = isoDate.split("-").map(Number);
    return { year, month, day };
  }
  const p = partsOf(
    dateFormat("en-US-u-ca-persian-nu-latn", { year: "numeric", month: "numeric", day: "numeric" }),
    utcDay(isoDate),
  );
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day) };
}

/**
 * The heading of a month in the language's calendar, from any day in it: "November 2026",
 * "november 2026", "آذر ۱۴۰۵". For `fa` the Gregorian months the Jalali one spans are `gregorian`:
 * "نوامبر – دسامبر ۲۰۲۶".
 */
export function formatMonth(lang: Language, firstDay: string, lastDay: string): { title: string; gregorian?: string } {
  if (!readsJalali(lang)) {
    return { title: dateFormat(intl(lang), { month: "long", year: "numeric" }).format(utcDay(firstDay)) };
  }
  const jalali = partsOf(dateFormat("fa-IR-u-ca-persian", { month: "long", year: "numeric" }), utcDay(firstDay));
  const month = dateFormat("fa-IR-u-ca-gregory", { month: "long" });
  const year = dateFormat("fa-IR-u-ca-gregory", { year: "numeric" });
  const [a, b] = [utcDay(firstDay), utcDay(lastDay)];
  const gregorian =
    year.format(a) === year.format(b)
      ? `${month.format(a)} – ${month.format(b)} ${year.format(b)}`
      : `${month.format(a)} ${year.format(a)} – ${month.format(b)} ${year.format(b)}`;
  return { title: `${jalali.month} ${jalali.year}`, gregorian };
}

/**
 * The weekday names of a week starting on `firstWeekday` (0 = Sunday … 6 = Saturday): the short
 * label a calendar shows and the full name. Persian uses the usual initials: ش ی د س چ پ ج.
 */
export function weekdayNames(lang: Language, firstWeekday: number): { short: string; long: string }[] {
  const locale = intl(lang);
  const short = dateFormat(locale, { weekday: readsJalali(lang) ? "narrow" : "short" });
  const long = dateFormat(locale, { weekday: "long" });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(2023, 0, 1 + ((firstWeekday + i) % 7)));
    return { short: short.format(day), long: long.format(day) };
  });
}

const LRI = "\u2066";
const PDI = "\u2069";

/**
 * Wraps each run of Latin letters, Western digits and the signs that travel with them ("1017 BZ",
 * "+31 20 808 1234", "name@company.com", "€5M+") in left-to-right isolates (U+2066 … U+2069), so
 * that in right-to-left text the run keeps its own order: without it "1017 BZ" reads "BZ 1017".
 * Runs already isolated are left alone. For text in a right-to-left language only.
 */
export function isolateLatinRuns(text: string): string {
  if (text.includes(LRI)) return text;
  // {{placeholders}} left for a later interpolation stay as they are.
  return text
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part, i) => (i % 2 ? part : isolateRuns(part)))
    .join("");
}

function isolateRuns(text: string): string {
  return text.replace(LATIN_RUN, (run) => {
    // Sentence punctuation after the run belongs to the surrounding text.
    const [, body, tail] = /^(.*?)([.,:;'’/-]*)$/s.exec(run)!;
    return /[A-Za-z+€$£%@]|\d[ \u00a0]\d/.test(body) ? `${LRI}${body}${PDI}${tail}` : run;
  });
}

const TOKEN = "[+€$£]*[A-Za-z0-9][A-Za-z0-9@._%&'’/:+€$£-]*";
const LATIN_RUN = new RegExp(`${TOKEN}(?:[ \u00a0]+${TOKEN})*`, "g");

/** The reply and forward marks mail programs put before a subject ("Re:", "Fwd:", "AW:", "Antw:"), repeated or not. */
const REPLY_MARKS = /^(?:\s*(?:re|fwd?|aw|wg|antw|sv|vs|tr)\s*(?:\[\d+\])?\s*:\s*)+/i;

/**
 * The direction a mail's subject or text reads in: that of its first letter once the reply marks are
 * set aside, so "Re: درخواست شما" reads right to left as its words do (a browser's dir="auto" would
 * take the R of "Re"); null for a text without letters.
 */
export function textDirection(text: string): "ltr" | "rtl" | null {
  const letter = /\p{L}/u.exec(text.replace(REPLY_MARKS, ""));
  if (!letter) return null;
  return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u.test(letter[0])
    ? "rtl"
    : "ltr";
}
