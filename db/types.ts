import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { EmailStatus } from "#shared/api/common.ts";
import type { Enquiry } from "#shared/api/enquiries.ts";
import type { Meeting, MeetingOutcome } from "#shared/api/meetings.ts";
import type { MeetingPlaceKind, OpeningHours } from "#shared/office.ts";
import type { Assignment } from "#shared/consultants.ts";
import type { Role } from "#shared/roles.ts";
import type { LeadStage } from "#shared/leads.ts";

/**
 * Table types, camelCase as the code sees them. Columns are snake_case in SQL; Kysely's
 * CamelCasePlugin (db/client.ts) maps between the two.
 */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A moment that may not have happened yet. */
type Timestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** bcrypt hash, never the password. */
  password: string;
  /** Carried in session tokens; bumped on logout and password change to revoke them. */
  sessionVersion: Generated<number>;
  /** What the account may do: the whole dashboard, or the site's texts only (src/shared/roles.ts). */
  role: Generated<Role>;
  /** The language the person reads the admin panel in (src/shared/languages.ts); null until chosen. */
  panelLanguage: string | null;
  /** Where security notices go (a factor added or removed, a new device); null: none are sent. */
  email: Generated<string | null>;
  /** The TOTP secret, sealed (db/seal.ts); null while TOTP is off. */
  totpSecret: Generated<string | null>;
  /** A secret being set up, sealed, until the person confirms it with a first code. */
  totpPendingSecret: Generated<string | null>;
  totpEnabledAt: Timestamp;
  /** The last TOTP time step a code was accepted at (bigint: a string from the driver). */
  totpLastStep: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  createdAt: CreatedAt;
}

/**
 * Visitors' enquiries (the enquiry form of the contact section; POST /api/contact). The visitor's
 * fields are the API record's (src/shared/api/); the table adds what the database fills in.
 */
export interface EnquiriesTable extends Pick<
  Enquiry,
  "firstName" | "lastName" | "email" | "company" | "service" | "message"
> {
  id: Generated<number>;
  createdAt: CreatedAt;
  /** Where the lead is (src/shared/leads.ts); the database checks the value. */
  stage: ColumnType<LeadStage, LeadStage | undefined, LeadStage>;
  /** A language code of src/shared/languages.ts, checked when read (a removed language fails loudly). */
  language: Generated<string>;
  /** When it first left "new" (null while new): retention and the admin's figures count from here. */
  repliedAt: Timestamp;
  stageChangedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The admin who looks after it (users.id); null when none, or the account is gone. */
  ownerId: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set exactly when lost (a check says so). */
  lostReasonId: ColumnType<number | null, number | null | undefined, number | null>;
  /** The service won; set exactly when a client. */
  clientService: ColumnType<string | null, string | null | undefined, string | null>;
  clientValueCents: ColumnType<number | null, number | null | undefined, number | null>;
  /** A calendar date, yyyy-MM-dd (text, as meetings.date). */
  followUpOn: ColumnType<string | null, string | null | undefined, string | null>;
  /** Bumped by every change of stage, owner or follow-up date (optimistic concurrency). */
  version: Generated<number>;
  /** When its personal fields were blanked (retention or an erasure); the row stays for the counts. */
  anonymisedAt: Timestamp;
  /** Where it came from (LeadSource as JSON, written with JSON.stringify); null when nothing is known. */
  source: ColumnType<unknown, string | null | undefined, string | null>;
}

/**
 * What the admin lists add to enquiries and meetings: the emails' summary (kept
 * by a trigger on email_outbox) and the folded search text (a generated column). None is written
 * on insert.
 */
export interface AdminColumns {
  emailStatus: ColumnType<EmailStatus | null, never, never>;
  searchText: ColumnType<string, never, never>;
}

/**
 * Newsletter addresses, double opt-in: pending until confirmed, active (counted, mailed) only while
 * confirmed and not unsubscribed. The consent record is when (consentedAt), in which language and
 * on which page the address was signed up, and when it was confirmed.
 */
export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  language: Generated<string>;
  createdAt: CreatedAt;
  /** Confirmed and not unsubscribed. */
  isActive: Generated<boolean>;
  consentedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  consentPage: string | null;
  /** When the last confirmation email was queued: at most one an hour to one address. */
  confirmationSentAt: Timestamp;
  confirmedAt: Timestamp;
  unsubscribedAt: Timestamp;
}

/** Meeting reservations: the API record's visitor fields (src/shared/api/meetings.ts), date and time unique together. */
export interface MeetingsTable extends Pick<Meeting, "name" | "email" | "phone" | "date" | "time"> {
  id: Generated<number>;
  createdAt: CreatedAt;
  isConfirmed: Generated<boolean>;
  /** A language code of src/shared/languages.ts, checked when read (a removed language fails loudly). */
  language: Generated<string>;
  /** When its personal fields were blanked (retention or an erasure); the row stays for the counts. */
  anonymisedAt: Timestamp;
  /** SEQUENCE of the calendar invite: 0 when booked, bumped on every status change sent to the visitor. */
  inviteSequence: Generated<number>;
  /** When and by whom the meeting was cancelled; a cancelled meeting no longer holds its slot. */
  cancelledAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  cancelledBy: "admin" | "visitor" | null;
  /** Carried by the visitor's manage links; bumped by a visitor's change, which retires older links. */
  manageVersion: Generated<number>;
  /** When the 24-hour reminder was queued (null: not yet, or the meeting moved since). */
  reminderQueuedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Where it happens, fixed at booking (src/shared/office.ts MeetingPlaceKind); null for meetings booked before. */
  locationKind: MeetingPlaceKind | null;
  /** The office address or the video link of that place; null for a phone call. */
  locationDetail: string | null;
  /** How it went, set by an admin once it has started. */
  outcome: MeetingOutcome | null;
  outcomeAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  outcomeBy: string | null;
  /** Where it came from (LeadSource as JSON, written with JSON.stringify); null when nothing is known. */
  source: ColumnType<unknown, string | null | undefined, string | null>;
  /** Whose meeting it is (consultants.id). */
  consultantId: string;
  /** Why it went to them (src/shared/consultants.ts Assignment, written with JSON.stringify); null for meetings from before. */
  assignment: ColumnType<Assignment | null, string | null | undefined, string | null>;
}

/**
 * A meeting's moves and hand-overs, one row each: the slot before and after (office-local yyyy-MM-dd
 * and HH:mm, and consultants.id) and who made it. Nothing of the visitor is in it.
 */
export interface MeetingChangesTable {
  /** bigserial: pg hands int8 back as a string. */
  id: Generated<string>;
  meetingId: number;
  at: CreatedAt;
  fromDate: string;
  fromTime: string;
  fromConsultant: string;
  toDate: string;
  toTime: string;
  toConsultant: string;
  /** The visitor on the manage page, or an admin in the panel. */
  by: "visitor" | "admin";
  /** The admin's account (null for the visitor, or once the account is removed) and their username as it was (null: the visitor). */
  byUserId: number | null;
  byUsername: string | null;
}

/**
 * The panel accounts that take meetings; the id is their team member's (src/data/team.json).
 * `hours` are their own weekly hours, null: the office's.
 */
export interface ConsultantsTable {
  id: string;
  userId: number;
  active: Generated<boolean>;
  hours: ColumnType<OpeningHours[] | null, string | null | undefined, string | null>;
  createdAt: CreatedAt;
}

/** Opening hours, office time: a weekday (1 = Monday) may have several periods. */
export interface OfficeHoursTable {
  weekday: number;
  opens: string;
  closes: string;
}

/** Company closures: from starts_on to ends_on (yyyy-MM-dd, both included), optionally every year. */
export interface OfficeClosuresTable {
  id: Generated<number>;
  startsOn: string;
  endsOn: string;
  yearly: Generated<boolean>;
  note: Generated<string>;
  createdAt: CreatedAt;
  /** The consultant who is away; null: the whole office is closed. */
  consultantId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The one row of office-wide settings. */
export interface OfficeSettingsTable {
  id: Generated<boolean>;
  publicHolidays: Generated<boolean>;
  noticeMinutes: Generated<number>;
  bufferBeforeMinutes: Generated<number>;
  bufferAfterMinutes: Generated<number>;
  dailyLimit: number | null;
  changeCutoffMinutes: Generated<number>;
  meetingPlace: Generated<MeetingPlaceKind>;
  videoPattern: Generated<string>;
  /** Every account must have a second factor (TOTP or a passkey). */
  requireSecondFactor: Generated<boolean>;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface LoginAttemptsTable {
  id: Generated<string>;
  /** What was throttled: `user:<username>` or `ip:<address>`. */
  key: string;
  attemptedAt: CreatedAt;
}

/** One counter of an abuse limit in one fixed window (db/rate-limits.repository.ts). */
export interface RateCountersTable {
  /** `<kind>:<HMAC of the subject>`, e.g. an enquiry's client address; never the subject in clear. */
  key: string;
  windowStart: Date;
  hits: number;
  /** When the window after this one has ended: from then on the row counts for nothing. */
  expiresAt: Date;
}

export type OutboxStatus = "pending" | "sending" | "sent" | "failed" | "dead";

/** One email to send; written in the same transaction as the record it is about (db/outbox.repository.ts). */
export interface EmailOutboxTable {
  /** bigserial: pg hands int8 back as a string. */
  id: Generated<string>;
  /** Which template made it, e.g. `enquiry.company` or `meeting.confirmed`. */
  kind: string;
  enquiryId: number | null;
  meetingId: number | null;
  toAddress: string;
  replyTo: string | null;
  subject: string;
  textBody: string;
  htmlBody: string;
  /** The calendar invite attached as text/calendar, if any. */
  ics: string | null;
  /** One-click unsubscribe URL (RFC 8058) of a newsletter email, sent as List-Unsubscribe. */
  listUnsubscribe: string | null;
  /** The Message-ID this message answers (In-Reply-To and References): a lead reply's acknowledgement. */
  inReplyTo: Generated<string | null>;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  lastError: string | null;
  nextAttemptAt: ColumnType<Date, Date | string | undefined, Date | string>;
  /** While a sender holds the row; a lock that expires makes the row claimable again. */
  lockedUntil: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  sentAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
}

export interface Database {
  users: UsersTable;
  enquiries: EnquiriesTable & AdminColumns;
  newsletterSubscribers: NewsletterSubscribersTable;
  meetings: MeetingsTable & AdminColumns;
  meetingChanges: MeetingChangesTable;
  consultants: ConsultantsTable;
  loginAttempts: LoginAttemptsTable;
  emailOutbox: EmailOutboxTable;
  officeHours: OfficeHoursTable;
  officeClosures: OfficeClosuresTable;
  officeSettings: OfficeSettingsTable;
  rateCounters: RateCountersTable;
  busyCalendars: BusyCalendarsTable;
  busyIntervals: BusyIntervalsTable;
  meetingsFeed: MeetingsFeedTable;
  adminSessions: AdminSessionsTable;
  auditLog: AuditLogTable;
  recoveryCodes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  authChallenges: AuthChallengesTable;
  pageViews: PageViewsTable;
  pageViewDays: PageViewDaysTable;
  pageViewKeys: PageViewKeysTable;
  invitations: InvitationsTable;
  lostReasons: LostReasonsTable;
  leadEvents: LeadEventsTable;
  leadMessages: LeadMessagesTable;
  leadNotes: LeadNotesTable;
  inboundTokens: InboundTokensTable;
  leadDigests: LeadDigestsTable;
}

/** The reasons a lead may be lost for, labelled in every language; archived ones are kept for old leads. */
export interface LostReasonsTable {
  id: Generated<number>;
  /** One text per language code (src/shared/languages.ts), as JSON; written with JSON.stringify. */
  labels: ColumnType<Record<string, string>, string, string>;
  createdAt: CreatedAt;
  archivedAt: Timestamp;
}

/** A lead's timeline: one row per change of stage, owner or follow-up date. */
export interface LeadEventsTable {
  id: Generated<string>;
  enquiryId: number;
  kind: "stage" | "owner" | "follow_up";
  fromValue: string | null;
  toValue: string | null;
  actorId: number | null;
  /** The actor's username as it was (the account may be renamed or removed later). */
  actorUsername: string | null;
  at: CreatedAt;
}

/** A reply sent to a lead from the panel ('out') or the lead's answer received by the inbound route ('in'). */
/** The admins' internal notes about a person, many per person, by their lower-cased address. */
export interface LeadNotesTable {
  /** bigint identity: pg hands int8 back as a string. */
  id: Generated<string>;
  /** The person's address, lower-cased (as an erasure matches it). */
  email: string;
  /** The enquiry or meeting it was written on, if any. */
  enquiryId: number | null;
  meetingId: number | null;
  /** Its author; null once the account is removed (the name stays). */
  authorId: number | null;
  authorUsername: string;
  body: string;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface LeadMessagesTable {
  /** bigint identity: pg hands int8 back as a string. */
  id: Generated<string>;
  enquiryId: number;
  direction: "out" | "in";
  fromAddress: string;
  toAddress: string;
  subject: string;
  /** The text only (an answer's attachments are not kept). */
  textBody: string;
  /** Its Message-ID with the angle brackets, e.g. <outbox-42@bridgewise.eu>. */
  messageId: string | null;
  inReplyTo: string | null;
  /** The username of whoever sent it ('out'); null for an answer. */
  sentBy: string | null;
  /** The outbox row that carries it ('out'). */
  outboxId: string | null;
  createdAt: CreatedAt;
}

/** Signature tokens of inbound posts already taken (a replay is refused). */
export interface InboundTokensTable {
  token: string;
  seenAt: ColumnType<Date, Date | string | undefined, never>;
}

/** A single-use invitation link (functions/invitation.ts): only its token's SHA-256 is kept. */
export interface InvitationsTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  /** The language of the email and of the page the link opens. */
  language: Generated<string>;
  createdAt: CreatedAt;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  usedAt: Timestamp;
}

/** One sign-in to the admin (db/sessions.repository.ts); the session token names its row. */
export interface AdminSessionsTable {
  id: string;
  userId: number;
  createdAt: CreatedAt;
  lastSeenAt: ColumnType<Date, Date | string | undefined, Date | string>;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  endedAt: Timestamp;
  device: Generated<string>;
  browser: Generated<string>;
  /** An address prefix (/24, /48) or a country code, never the full address. */
  place: Generated<string>;
  /** A session that may only set up a second factor (and sign out). */
  limited: Generated<boolean>;
  /** When its person last proved again who they are (password, code or passkey); null: never. */
  steppedUpAt: Timestamp;
}

/** One-time recovery codes (db/factors.repository.ts): their SHA-256, spent once. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  userId: number;
  codeHash: string;
  usedAt: Timestamp;
  createdAt: CreatedAt;
}

/** WebAuthn credentials (passkeys) of the accounts. */
export interface PasskeysTable {
  id: Generated<number>;
  userId: number;
  /** base64url, as the browser names it. */
  credentialId: string;
  publicKey: Uint8Array;
  counter: ColumnType<string, number | string | undefined, number | string>;
  transports: Generated<string[]>;
  name: string;
  createdAt: CreatedAt;
  lastUsedAt: Timestamp;
}

/** Short-lived single-use challenges: the login's second step, a passkey's registration or sign-in. */
export interface AuthChallengesTable {
  id: string;
  purpose: "second-step" | "passkey-register" | "passkey-signin" | "passkey-step-up";
  userId: number | null;
  challenge: Generated<string>;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
}

/** Who did what (db/audit.repository.ts): appended only; a trigger refuses edits but the erasure scrub. */
export interface AuditLogTable {
  id: Generated<string>;
  at: ColumnType<Date, Date | string | undefined, never>;
  actorId: number | null;
  actor: Generated<string>;
  place: Generated<string>;
  action: string;
  target: Generated<string>;
  subject: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
}

/** Counted views of the current days ('' is "none"); folded into page_view_days when the day is over. */
export interface PageViewsTable {
  id: Generated<string>;
  /** Office-time date. */
  day: ColumnType<string, string, string>;
  /** The first page of a visit (the visit's count). */
  entry: boolean;
  path: string;
  lang: string;
  referrer: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  device: string;
  country: string;
}

/** Views and visits per office day and dimensions. */
export interface PageViewDaysTable extends Omit<PageViewsTable, "id" | "entry"> {
  views: number;
  visits: number;
}

/** The Sources charts' daily counts: one row per day, dimension and value ('all' holds the day's totals). */
export interface PageViewKeysTable {
  day: ColumnType<string, string, string>;
  dim: "all" | "source" | "campaign" | "path" | "lang" | "referrer";
  key: string;
  views: number;
  visits: number;
}

/** The private address of the meetings feed: its token, sealed (db/meetings-feed.repository.ts). One row at most. */
export interface MeetingsFeedTable {
  /** Whose meetings it shows; null: the whole office's. One feed each. */
  consultantId: ColumnType<string | null, string | null | undefined, string | null>;
  token: string;
  /** When this token was made (a new one replaces the row's token and this). */
  createdAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A connected calendar feed whose events make the office busy (the password never leaves the server). */
export interface BusyCalendarsTable {
  id: Generated<number>;
  name: string;
  url: string;
  username: string | null;
  password: string | null;
  fromEnv: Generated<boolean>;
  lastOkAt: Date | null;
  failingSince: Date | null;
  lastError: string | null;
  eventCount: Generated<number>;
  createdAt: Generated<Date>;
  /** The calendar's account address (optional): an invitation it declined does not block. */
  ownerEmail: string | null;
  /** When the admin was warned that the failing feed is about to turn stale; null after a good fetch. */
  staleWarnedAt: Date | null;
  /** Whose time it blocks; null: everyone's (the office's own calendar, BUSY_CALENDARS). */
  consultantId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One busy stretch of a feed, in UTC, expanded at refresh time. */
export interface BusyIntervalsTable {
  calendarId: number;
  startsAt: Date;
  endsAt: Date;
}

export type UserRow = Selectable<UsersTable>;
export type EnquiryRow = Selectable<EnquiriesTable>;
/** A row as the admin lists read it: every column but the search text. */
/** The newest note on the record (db/admin-rows.ts newestNote), selected next to its columns. */
interface NewestNote {
  note: { id: string | number; text: string; by: string; at: string } | null;
}
export type AdminEnquiryRow = Omit<Selectable<EnquiriesTable & AdminColumns>, "searchText" | "anonymisedAt"> &
  NewestNote;
export type AdminMeetingRow = Omit<Selectable<MeetingsTable & AdminColumns>, "searchText" | "anonymisedAt"> &
  NewestNote;
export type NewEnquiry = Insertable<EnquiriesTable>;
export type MeetingRow = Selectable<MeetingsTable>;
export type NewMeeting = Insertable<MeetingsTable>;
export type MeetingUpdate = Updateable<MeetingsTable>;
export type OutboxRow = Selectable<EmailOutboxTable>;
export type NewOutboxRow = Insertable<EmailOutboxTable>;

/** One owner's morning digest of due leads for one office day (at most one: the primary key). */
export interface LeadDigestsTable {
  ownerId: number;
  /** yyyy-MM-dd, office time. */
  officeDate: string;
  /** How many due leads it listed. */
  leads: number;
  /** The outbox row that carries it (bigint: a string). */
  outboxId: string | null;
  createdAt: CreatedAt;
}
