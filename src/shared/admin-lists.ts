/**
 * What the admin lists can be asked for: search, filters and sort, as query parameters. One
 * definition for the API (which answers 400 to a wrong value), the dashboard (which keeps the same
 * parameters in its own address, so a view can be bookmarked and shared) and the CSV export.
 */
import { isCalendarDate } from "./dates.ts";
import { isLanguage, type Language } from "./languages.ts";
import { LEAD_STAGES, type LeadStage } from "./leads.ts";
import { CONSULTANT_ID, CONSULTANT_ID_MAX } from "./consultants.ts";

/** The longest search text the API accepts. */
export const SEARCH_MAX_LENGTH = 100;
/** The longest internal note on an enquiry or a meeting. */
export const NOTE_MAX_LENGTH = 500;
/** The longest service value a filter can name (catalogue ids are shorter; stored values are capped alike). */
const SERVICE_MAX_LENGTH = 100;

/** What needs the office: "waiting" leads have no reply yet; "overdue" ones waited past the answer time, or their follow-up day has come. */
export const LEAD_ATTENTION = ["waiting", "overdue"] as const;
export const MEETING_STATUSES = ["pending", "confirmed"] as const;
/** Meetings whose slot has not started yet, or has. */
export const MEETING_TIMES = ["upcoming", "past"] as const;
/** newest/oldest: by when the enquiry came in; follow-up: the soonest follow-up date first (leads without one last). */
export const ENQUIRY_SORTS = ["newest", "oldest", "follow-up"] as const;
/** newest/oldest: by when the request came in; soonest/latest: by the meeting's own date and time. */
export const MEETING_SORTS = ["newest", "oldest", "soonest", "latest"] as const;

export type EnquirySort = (typeof ENQUIRY_SORTS)[number];
export type MeetingSort = (typeof MEETING_SORTS)[number];

export interface EnquiryFilters {
  /** Found in the name, email, company or message, whatever the accents, letter forms or joiners. */
  q?: string;
  stage?: LeadStage;
  /** An admin's user id, "none" (nobody's) or "me" (the asking admin's). */
  owner?: number | "none" | "me";
  attention?: (typeof LEAD_ATTENTION)[number];
  service?: string;
  language?: Language;
  /** Received on or after this office-time date (yyyy-MM-dd). */
  from?: string;
  /** Received on or before this office-time date. */
  to?: string;
  sort?: EnquirySort;
}

export interface MeetingFilters {
  /** Found in the name, email or phone. */
  q?: string;
  status?: (typeof MEETING_STATUSES)[number];
  language?: Language;
  /** Meetings on or after this date (the meeting's own date). */
  from?: string;
  /** Meetings on or before this date. */
  to?: string;
  when?: (typeof MEETING_TIMES)[number];
  sort?: MeetingSort;
  /** One consultant's meetings (their id), or ALL_CONSULTANTS: the panel opens on a consultant's own ("mine"). */
  consultant?: string;
}

/** The consultant filter's value for every consultant's meetings, chosen on purpose. */
export const ALL_CONSULTANTS = "all";

type Parsed<T> = { filters: T; problems: string[] };

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string): T | undefined =>
    (values as readonly string[]).includes(raw) ? (raw as T) : undefined;

type Readers = Record<string, { read: (raw: string) => unknown; explain: string }>;

const common: Readers = {
  q: {
    read: (raw) => (raw.trim() && raw.length <= SEARCH_MAX_LENGTH ? raw.trim() : undefined),
    explain: `q must be 1 to ${SEARCH_MAX_LENGTH} characters`,
  },
  language: { read: (raw) => (isLanguage(raw) ? raw : undefined), explain: "language must be en, nl or fa" },
  from: { read: (raw) => (isCalendarDate(raw) ? raw : undefined), explain: "from must be a date, yyyy-MM-dd" },
  to: { read: (raw) => (isCalendarDate(raw) ? raw : undefined), explain: "to must be a date, yyyy-MM-dd" },
};

const enquiryReaders: Readers = {
  ...common,
  stage: { read: oneOf(LEAD_STAGES), explain: `stage must be ${LEAD_STAGES.join(", ")}` },
  owner: {
    read: (raw) => (raw === "none" || raw === "me" ? raw : /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : undefined),
    explain: "owner must be a user id, none or me",
  },
  attention: { read: oneOf(LEAD_ATTENTION), explain: `attention must be ${LEAD_ATTENTION.join(" or ")}` },
  service: {
    read: (raw) => (raw && raw.length <= SERVICE_MAX_LENGTH ? raw : undefined),
    explain: `service must be 1 to ${SERVICE_MAX_LENGTH} characters`,
  },
  sort: { read: oneOf(ENQUIRY_SORTS), explain: `sort must be ${ENQUIRY_SORTS.join(", ")}` },
};

const meetingReaders: Readers = {
  ...common,
  status: { read: oneOf(MEETING_STATUSES), explain: `status must be ${MEETING_STATUSES.join(" or ")}` },
  when: { read: oneOf(MEETING_TIMES), explain: `when must be ${MEETING_TIMES.join(" or ")}` },
  sort: { read: oneOf(MEETING_SORTS), explain: `sort must be ${MEETING_SORTS.join(", ")}` },
  consultant: {
    read: (raw) =>
      raw === ALL_CONSULTANTS || (raw.length <= CONSULTANT_ID_MAX && CONSULTANT_ID.test(raw)) ? raw : undefined,
    explain: `consultant must be "${ALL_CONSULTANTS}" or a consultant's id`,
  },
};

function parse<T>(readers: Readers, params: URLSearchParams): Parsed<T> {
  const filters: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, { read, explain }] of Object.entries(readers)) {
    const raw = params.get(key);
    if (raw === null || raw === "") continue;
    const value = read(raw);
    if (value === undefined) problems.push(explain);
    else filters[key] = value;
  }
  if (typeof filters.from === "string" && typeof filters.to === "string" && filters.from > filters.to) {
    problems.push("from must not be after to");
  }
  return { filters: filters as T, problems };
}

/** The enquiry filters of a query string; `problems` says what was wrong (each wrong value is left out). */
export const parseEnquiryFilters = (params: URLSearchParams) => parse<EnquiryFilters>(enquiryReaders, params);
/** The meeting filters of a query string; `problems` says what was wrong (each wrong value is left out). */
export const parseMeetingFilters = (params: URLSearchParams) => parse<MeetingFilters>(meetingReaders, params);

/** Whether a list's filters narrow nothing (an order alone, or an empty search, is no filter). */
export const isUnfiltered = (filters: EnquiryFilters | MeetingFilters): boolean =>
  Object.entries(filters).every(
    ([key, value]) =>
      key === "sort" ||
      value === undefined ||
      (key === "q" && !value) ||
      (key === "consultant" && value === ALL_CONSULTANTS),
  );

/** The query string of a set of filters, in a fixed order, without empty values (the inverse of the parsers). */
export function filtersToParams(filters: EnquiryFilters | MeetingFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of [
    "q",
    "status",
    "stage",
    "owner",
    "attention",
    "service",
    "language",
    "from",
    "to",
    "when",
    "consultant",
    "sort",
  ] as const) {
    const value = (filters as Record<string, string | number | undefined>)[key];
    if (value) params.set(key, String(value));
  }
  return params;
}

/** Whether any filter or search narrows the list (sort alone does not). */
export const isFiltered = (filters: EnquiryFilters | MeetingFilters) =>
  Object.entries(filters).some(([key, value]) => key !== "sort" && key !== "consultant" && Boolean(value));

/** The admin pages of the two lists, where a filtered view of one is linked from an email or a calendar. */
export const ADMIN_LIST_PATHS = { enquiries: "/admin/leads", meetings: "/admin/meetings" } as const;
