/**
 * The date-fns locale of each language: month and weekday names in the booking date picker. Kept
 * apart from ./languages.ts so only the picker's chunk carries these tables.
 */
import type { Locale } from "date-fns";
import { enUS, faIR, nl } from "date-fns/locale";
import type { Language } from "./languages.ts";

export const DATE_FNS_LOCALES: Record<Language, Locale> = { en: enUS, nl, fa: faIR };
