/**
 * The booking dialog's first two choices as data: who the visitor meets ("whoever is free first" or
 * a named consultant of the team) and how (at the office, by video, by phone), and what each choice
 * asks of the slots API. Pure functions, shared by the dialog's static shell and its island.
 */
import type { Language } from "#shared/languages.ts";
import { MEETING_PLACE_KINDS, type MeetingPlaceKind } from "#shared/office.ts";

/** The choice "whoever is free first": the server picks among the consultants who speak the page's language. */
export const ANYONE = "any";

/** Where the meeting happens unless the visitor says otherwise: the office, as before there was a choice. */
export const DEFAULT_PLACE: MeetingPlaceKind = "office";

/** The places in the order the dialog offers them. */
export const PLACES: readonly MeetingPlaceKind[] = ["office", "video", "phone"];

/** A team member as the dialog shows them, built from team.json at build time. */
export interface ConsultantOption {
  id: string;
  name: string;
  /** Shown when there is no photo. */
  initials: string;
  photo: { src: string; alt: string } | null;
  /** The gradient behind the initials: the team section's, so they look the same in both places. */
  tint: string;
  languages: readonly Language[];
  /** The languages they speak as words in the page's language ("Engels, Nederlands en Perzisch"). */
  speaks: string;
}

/** A consultant the server says can be booked (GET /api/meetings/calendar's `consultants`). */
export interface BookableConsultant {
  id: string;
  languages?: readonly string[];
  services?: readonly string[];
}

/**
 * The team in the order the dialog offers them: those who speak the page's language first (in
 * Persian, the Persian speakers), then the others, each group in the team's own order. Nobody is
 * hidden: a Persian-speaking founder may still want the Dutch lawyer.
 */
export function orderByLanguage<T extends { languages: readonly Language[] }>(team: readonly T[], lang: Language): T[] {
  return [...team.filter((m) => m.languages.includes(lang)), ...team.filter((m) => !m.languages.includes(lang))];
}

/** Whether the consultant speaks the page's language (the dialog marks them so). */
export const speaksPageLanguage = (member: { languages: readonly Language[] }, lang: Language) =>
  member.languages.includes(lang);

/**
 * Whether a team member can be booked now. `listed` is the server's list; a server that sends none
 * (one that predates consultants) books the office as a whole, so nobody is taken off the list.
 */
export function isBookable(id: string, listed: readonly BookableConsultant[] | undefined): boolean {
  return !listed || listed.some((c) => c.id === id);
}

/** The choice to keep once the server's list is known: the visitor's, unless that consultant cannot be booked. */
export function keptChoice(choice: string, listed: readonly BookableConsultant[] | undefined): string {
  return choice === ANYONE || isBookable(choice, listed) ? choice : ANYONE;
}

/**
 * The query that goes with the calendar and slots requests: a named consultant's own, or for
 * "whoever is free" the union over the consultants who speak the page's language.
 */
export function consultantQuery(choice: string, lang: Language): Record<string, string> {
  return choice === ANYONE ? { consultant: ANYONE, language: lang } : { consultant: choice };
}

/** A posted or pre-hydration value as a place, else the default. */
export function placeOf(value: string | null | undefined): MeetingPlaceKind {
  return MEETING_PLACE_KINDS.includes(value as MeetingPlaceKind) ? (value as MeetingPlaceKind) : DEFAULT_PLACE;
}

/** The choice checked in the page before the island ran (the radios work without script), else `fallback`. */
export function checkedBefore(name: string, fallback: string): string {
  if (typeof document === "undefined") return fallback;
  const input = document.querySelector<HTMLInputElement>(`#booking-dialog input[name="${name}"]:checked`);
  return input?.value ?? fallback;
}

/** The consultant's name for an id the server answers with, or null when it names nobody on the team. */
export function consultantName(id: string | null | undefined, team: readonly { id: string; name: string }[]) {
  return (id && team.find((m) => m.id === id)?.name) || null;
}

/**
 * The languages a consultant speaks as words in the page's language, the page's own first:
 * "English, Persian, and Dutch", "Nederlands, Perzisch en Engels", "فارسی، انگلیسی و هلندی"
 * (Intl's Persian list has a comma before و and a right-to-left mark that Persian texts do not use).
 */
export function spokenLanguages(lang: Language, codes: readonly Language[]): string {
  const names = new Intl.DisplayNames(lang, { type: "language" });
  const ordered = [...codes.filter((c) => c === lang), ...codes.filter((c) => c !== lang)];
  const list = new Intl.ListFormat(lang, { type: "conjunction" }).format(ordered.map((c) => names.of(c) ?? c));
  return lang === "fa" ? list.replaceAll("\u200F", "").replace(/، و /g, " و ") : list;
}

/** The name of the page's language in itself ("Nederlands", "فارسی"), for "who speaks …". */
export const languageName = (lang: Language) => new Intl.DisplayNames(lang, { type: "language" }).of(lang) ?? lang;

/** What a server that knows consultants adds to a meeting it answers with (the booking and the manage link). */
export interface MeetingChoices {
  /** The consultant's id (a team member's). */
  consultant?: string | null;
  place?: MeetingPlaceKind | null;
  location?: { kind: MeetingPlaceKind } | null;
}

/** Where the meeting happens, as the answer says it, or null when it does not. */
export const placeOfMeeting = (meeting: MeetingChoices): MeetingPlaceKind | null =>
  meeting.place ?? meeting.location?.kind ?? null;
