/**
 * The shape of every API answer, in one place: the repositories return these
 * records, the functions answer with these types and the islands read them, so a change that
 * breaks a client fails the type check. Payloads (what clients send) are the zod schemas in
 * ./schemas.ts.
 */
import type { Language } from "./languages.ts";
import type { DutchHoliday } from "./holidays.ts";
import type { BookingGuardrails, IsoWeekday, MeetingPlaceKind, OpeningHours } from "./office.ts";
import type { Role } from "./roles.ts";
import type { LeadSource } from "./sources.ts";

/** Every error answer: the message, and each field's messages on a 400. */
export interface ErrorAnswer {
  success: false;
  message: string;
  errors?: Record<string, string[]>;
  /** What the forms translate: one of GUARD_CODES (src/shared/form-guard.ts), when the refusal is one of those. */
  code?: string;
  /** PUT /api/content/texts, 409: the texts another editor changed since they were loaded. */
  conflicts?: (TextAddress & { yours: string; theirs: string })[];
}

/** A visitor's enquiry, sent with the enquiry form on the contact section. */
export interface Enquiry {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  /** A catalogue id (src/shared/services.ts) or any other non-empty value, which the API accepts. */
  service: string;
  message: string;
  /** The visitor's language: every email about the enquiry speaks it. */
  language: Language;
  /** ISO 8601, UTC. */
  createdAt: string;
  isProcessed: boolean;
}

/** A visitor's meeting reservation. */
export interface Meeting {
  id: number;
  name: string;
  email: string;
  phone: string;
  /** Office-local date, yyyy-MM-dd. */
  date: string;
  /** Office-local slot start, HH:mm. */
  time: string;
  /** The visitor's language: every email about the meeting speaks it. */
  language: Language;
  /** ISO 8601, UTC. */
  createdAt: string;
  isConfirmed: boolean;
  /** ISO 8601, UTC; null while the meeting stands. A cancelled meeting no longer holds its slot. */
  cancelledAt: string | null;
}

/**
 * How a record's notification emails are doing: "sent" when all went out, "pending" while one
 * waits for its first try or a retry is under way, "failing" when one has failed; null when the
 * record has none (stored before notifications existed).
 */
export type EmailStatus = "sent" | "pending" | "failing";

/** An admin's internal note on an enquiry or a meeting: never shown to the visitor. */
export interface AdminNote {
  text: string;
  /** The username of the admin who wrote it last. */
  by: string;
  /** ISO 8601, UTC. */
  at: string;
}

/** An enquiry as the admin lists (and PATCH answers) show it. */
export interface AdminEnquiry extends Enquiry {
  emailStatus: EmailStatus | null;
  /** When it was marked processed (ISO 8601, UTC); null while pending or when that was never recorded. */
  processedAt: string | null;
  note: AdminNote | null;
  /** Where it came from (the visit's first touch, the page of sending); null when nothing is known. */
  source: LeadSource | null;
}

/** Where a meeting happens, fixed when it was booked: the office's address, a phone call, or its own video link. */
export interface MeetingLocation {
  kind: MeetingPlaceKind;
  /** The address (office) or the link (video); null for a phone call (we call the visitor's number). */
  detail: string | null;
}

/** How a meeting that has started went, as an admin marked it. */
export type MeetingOutcome = "done" | "no-show";
export const MEETING_OUTCOMES: readonly MeetingOutcome[] = ["done", "no-show"];

/** A meeting as the admin lists (and PATCH answers) show it. */
export interface AdminMeeting extends Meeting {
  emailStatus: EmailStatus | null;
  note: AdminNote | null;
  /** Who cancelled it, when it is cancelled. */
  cancelledBy: "admin" | "visitor" | null;
  /** null for meetings booked before meeting places existed. */
  location: MeetingLocation | null;
  /** null until an admin marks it. */
  outcome: MeetingOutcome | null;
  /** Where it came from (the visit's first touch, the page of sending); null when nothing is known. */
  source: LeadSource | null;
}

/** Where a meeting stands, as its visitor sees it. */
export type MeetingStatus = "pending" | "confirmed" | "cancelled";

/** A meeting as its manage link shows it: nothing personal, so a forwarded link reveals no address. */
export interface ManagedMeeting {
  /** Our reference, e.g. M-00017. */
  reference: string;
  date: string;
  time: string;
  language: Language;
  status: MeetingStatus;
  /**
   * Whether the link may still move or cancel it: false from `changeCutoffMinutes` before its
   * start (the page then says how to reach the office instead).
   */
  changeable: boolean;
  /** The admin's cut-off, in minutes before the start. */
  changeCutoffMinutes: number;
}

/** A company closure as the admin edits it (yyyy-MM-dd, both ends included). */
export interface OfficeClosure {
  id: number;
  from: string;
  to: string;
  /** On the same days every year. */
  yearly: boolean;
  note: string;
}

/** The office's availability as the admin edits it, with the computed public holidays to show. */
export interface Availability {
  hours: OpeningHours[];
  closures: OfficeClosure[];
  /** Whether the Dutch public holidays close the office. */
  publicHolidays: boolean;
  /** The Dutch public holidays of this year and the next (computed, not editable). */
  holidays: { date: string; holiday: DutchHoliday }[];
}

/** GET /api/admin/stats: the figures above the dashboard's tabs. */
export interface AdminStats {
  /** Enquiries received since Monday 00:00, office time. */
  newThisWeek: number;
  /** Enquiries not yet processed, of any age. */
  pending: number;
  /** Meetings (pending or confirmed, not cancelled) from now until the end of the 7th day, today included. */
  meetingsNext7Days: number;
  /**
   * Of the enquiries received in the last `windowDays` days whose outcome is known (processed, or
   * their 2 working days are over), the share processed within 2 working days: 0–1, null when none.
   */
  processedOnTime: number | null;
  /** How many enquiries that share is taken over. */
  processedOnTimeOf: number;
  windowDays: number;
  /** Meetings of the last `windowDays` days (today included) an admin marked done, and no-show. */
  meetingsDone: number;
  meetingsNoShow: number;
}

/** The booking rules the date picker needs, in office time. */
export interface OfficeCalendar {
  timeZone: string;
  /** Today in the office, yyyy-MM-dd. */
  today: string;
  /** The last bookable date. */
  lastDate: string;
  /** Weekdays with opening hours, 1 = Monday … 7 = Sunday. */
  weekdays: IsoWeekday[];
  /** Working days from today to lastDate on which the office is closed (public holidays, company days). */
  closedDates: string[];
  hours: OpeningHours[];
  /** Days from today to lastDate whose daily cap of meetings is reached. */
  fullDates: string[];
  /** The earliest start the notice allows now, office time (src/shared/booking.ts earliestStart). */
  earliest: { date: string; time: string };
  /** Meeting length and step between slot starts, in minutes. */
  slotMinutes: number;
}

export interface CurrentUser {
  id: number;
  username: string;
  /** What the dashboard shows: everything (admin) or the content editor only (editor). */
  role: Role;
}

/** GET /api/detect-language */
export interface DetectLanguageAnswer {
  language: Language;
}
/** POST /api/contact (201) */
export interface EnquiryCreatedAnswer {
  success: true;
  id: number;
}
/** GET /api/meetings/calendar */
export interface CalendarAnswer {
  success: true;
  data: OfficeCalendar;
}
/** GET /api/meetings/available-slots?date=yyyy-MM-dd */
export interface SlotsAnswer {
  success: true;
  data: string[];
}
/** POST /api/meetings/schedule (201) */
export interface MeetingScheduledAnswer {
  success: true;
  data: Meeting;
}
/** POST /api/newsletter (201 new, 200 already subscribed), POST /api/login, POST /api/logout */
export interface MessageAnswer {
  success: true;
  message: string;
}
/** GET /api/user */
/** POST /api/admin/users: the new account and its one-time password, shown once to the inviting admin. */
export interface InvitedUser {
  user: CurrentUser;
  password: string;
}

export interface CurrentUserAnswer {
  success: true;
  user: CurrentUser;
}
/** GET /api/meetings/manage, POST /api/meetings/manage/cancel */
export interface ManagedMeetingAnswer {
  success: true;
  data: ManagedMeeting;
}
/** POST /api/meetings/manage/move: the moved meeting and the link token that now manages it. */
export interface MovedMeetingAnswer {
  success: true;
  data: ManagedMeeting & { token: string };
}
/** GET and PUT /api/admin/availability */
export interface AvailabilityAnswer {
  success: true;
  data: Availability;
}
/** The admin's booking rules: the guardrails and where meetings happen (GET and PUT /api/admin/booking-rules). */
export type BookingRules = BookingGuardrails & { meetingPlace: MeetingPlaceKind; videoPattern: string };
/** GET and PUT /api/admin/booking-rules */
export interface BookingRulesAnswer {
  success: true;
  data: BookingRules;
}
/** POST /api/admin/availability/closures (201) */
export interface ClosureAnswer {
  success: true;
  data: OfficeClosure;
}
/** A connected calendar feed as the admin sees it: never its full address or its credentials. */
export interface CalendarFeed {
  id: number;
  name: string;
  /** Scheme and host only, e.g. `https://calendar.google.com/…`. */
  address: string;
  hasCredentials: boolean;
  /** Set by BUSY_CALENDARS: the admin cannot remove it. */
  fromEnv: boolean;
  /** ISO 8601, UTC, or null. */
  lastOkAt: string | null;
  failingSince: string | null;
  lastError: string | null;
  /** Busy times the last good copy holds over the booking horizon. */
  eventCount: number;
  /** Failing for longer than `staleAfterHours`: the feed now blocks every slot. */
  stale: boolean;
}
/** GET /api/admin/availability/calendars */
export interface CalendarFeedsAnswer {
  success: true;
  data: { feeds: CalendarFeed[]; staleAfterHours: number };
}
/** What fetching a feed found: its events and the busy times they make over the booking horizon, or why it failed. */
export interface CalendarFetchResult {
  id?: number;
  ok: boolean;
  events?: number;
  intervals?: number;
  error?: string;
}
/** POST /api/admin/availability/calendars (201), …/calendars/test, …/calendars/{id}/refresh */
export interface CalendarFetchAnswer {
  success: true;
  data: CalendarFetchResult;
}
/** GET and POST /api/admin/availability/meetings-feed: the private address of the meetings feed, or null before one is made. */
export interface MeetingsFeedAnswer {
  success: true;
  data: { url: string | null };
}
/** The failing calendar feeds, for the dashboard's notice (GET /api/admin/alerts). */
export interface FailingCalendar {
  name: string;
  /** ISO 8601, UTC. */
  failingSince: string;
  stale: boolean;
}
/** GET /api/admin/submissions; PATCH /api/admin/submissions/{id} answers one AdminEnquiry. */
export type AdminEnquiriesAnswer = AdminEnquiry[];
/** GET /api/admin/meetings; PATCH /api/admin/meetings/{id} answers one AdminMeeting. */
export type AdminMeetingsAnswer = AdminMeeting[];

/**
 * POST /api/admin/privacy/export: everything held about one email address, as the person may ask
 * for it (GDPR art. 15 and 20). Timestamps are ISO 8601 in UTC.
 */
/** An admin's internal note on one of the person's records, in their export. */
export interface ExportedNote {
  text: string;
  by: string;
  /** ISO 8601, UTC; null for a note from before notes were timed. */
  at: string | null;
}

export interface PersonalDataExport {
  email: string;
  exportedAt: string;
  enquiries: (Omit<Enquiry, "language"> & {
    language: string;
    processedAt: string | null;
    note: ExportedNote | null;
    source: LeadSource | null;
  })[];
  meetings: (Omit<Meeting, "language"> & { language: string; note: ExportedNote | null; source: LeadSource | null })[];
  newsletter: {
    email: string;
    language: string;
    signedUpAt: string;
    signedUpOnPage: string | null;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
    isActive: boolean;
  }[];
  /** Every email to, from or about the address (the text version; bodies are removed after the retention time). */
  emails: {
    kind: string;
    to: string;
    replyTo: string | null;
    subject: string;
    text: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
  }[];
  /** Sign-in attempts to the admin panel that typed this address as the username. */
  loginAttempts: { key: string; attemptedAt: string }[];
  /** An admin account whose username is this address (not erased with the rest). */
  adminAccount: { username: string; createdAt: string } | null;
}

/** POST /api/admin/privacy/erase: how many of each kind of record the erasure changed. */
export interface ErasureAnswer {
  success: true;
  erased: { enquiries: number; meetings: number; newsletter: number; emails: number; loginAttempts: number };
}

/** GET /api/admin/newsletter: how many addresses are confirmed (the only ones that count) and pending. */
export interface NewsletterCountsAnswer {
  confirmed: number;
  pending: number;
}

/** GET /api/form-token: a signed "form shown at" token for the next submission of a public form. */
export interface FormTokenAnswer {
  success: true;
  token: string;
  /** Milliseconds from now until the token is accepted (a person needs a moment to fill a form). */
  validInMs: number;
  /** Milliseconds from now until it is refused as stale. */
  expiresInMs: number;
}

/** GET /api/admin/alerts: what the dashboard warns about. */
export interface AdminAlertsAnswer {
  success: true;
  data: {
    breaker: {
      /** Acknowledgements are paused: the public forms are being flooded. */
      tripped: boolean;
      /** Submissions (estimated) in the last window, and the limit. */
      submissions: number;
      limit: number;
      windowMinutes: number;
    };
    /** The connected calendars that cannot be read, longest failing first. */
    calendars: FailingCalendar[];
  };
}

// ---- Content editor (/api/content/…) ----------------------------------------------------------

/** A text's address: its language and key ("hero.title"; "testimonials:sara-rahimi.content" in a content file). */
export interface TextAddress {
  lang: string;
  key: string;
}

/** One outline entry: page → section → keys (tools/editor/groups.ts). */
export interface ContentPage {
  name: string;
  sections: { name: string; keys: string[] }[];
}

/** A testimonial or a team member: its texts' keys, by field, under one name. */
export interface ContentItem {
  id: string;
  label: string;
  /** field name → key ("content" → "testimonials:sara-rahimi.content"). */
  fields: Record<string, string>;
}

export interface ReviewFlagAnswer {
  lang: string;
  key: string;
  reason: "changed" | "new";
}

/** The copy rules the editor checks with as the editor types (src/i18n/copy-rules.json). */
export interface CopyRulesAnswer {
  keepInEnglish: Record<string, string[]>;
  lengthBudgets: { what: string; keys: string[]; maxLength?: number; maxWordLength?: number; why?: string }[];
}

/** GET /api/content/texts */
export interface ContentAnswer {
  success: true;
  languages: string[];
  /** file path → revision (its git blob sha), sent back with a save. */
  revisions: Record<string, string>;
  pages: ContentPage[];
  collections: { testimonials: ContentItem[]; team: ContentItem[] };
  /** lang → key → text. */
  texts: Record<string, Record<string, string>>;
  reviews: ReviewFlagAnswer[];
  rules: CopyRulesAnswer;
  publish: PublishStatus;
}

/** Where the last save stands: committed, being built, published, or refused by the build. */
export interface PublishStatus {
  /** "git": commits to the working copy (npm start rebuilds); "github": commits through GitHub's API (Netlify rebuilds). */
  provider: "git" | "github";
  /** committed: saved to the repository, the host (Netlify) builds it; building, published, failed: `npm start`'s rebuild. */
  state: "idle" | "committed" | "building" | "published" | "failed";
  commit?: string;
  /** ISO time of the commit (building) or of the finished build (published, failed). */
  at?: string;
  /** The build's refusal in plain words (failed). */
  message?: string;
  /** The text the refusal is about, when the build names one. */
  text?: TextAddress;
}

/** A change the editor sends: the text as it was loaded (`was`) and as it is now (`value`). */
export interface TextChange extends TextAddress {
  value: string;
  was: string;
}

/** PUT /api/content/texts: 200 */
export interface SaveAnswer {
  success: true;
  /** The commit made, or null when every text was already as sent. */
  commit: string | null;
  at: string | null;
  revisions: Record<string, string>;
  /** The saved texts as written (Persian with Arabic letters replaced). */
  saved: (TextAddress & { value: string })[];
  reviews: ReviewFlagAnswer[];
  publish: PublishStatus;
}

/** PUT /api/content/texts: 409 when another editor changed the same text since it was loaded. */
export type ConflictAnswer = ErrorAnswer & Required<Pick<ErrorAnswer, "conflicts">>;
