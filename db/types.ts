import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * Table types, camelCase as the code sees them. Columns are snake_case in SQL; Kysely's
 * CamelCasePlugin (db/client.ts) maps between the two.
 */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** bcrypt hash, never the password. */
  password: string;
  /** Carried in session tokens; bumped on logout and password change to revoke them. */
  sessionVersion: Generated<number>;
  createdAt: CreatedAt;
}

export interface ContactSubmissionsTable {
  id: Generated<number>;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string;
  message: string;
  createdAt: CreatedAt;
  isProcessed: Generated<boolean>;
}

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  language: Generated<string>;
  createdAt: CreatedAt;
  isActive: Generated<boolean>;
}

export interface MeetingsTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  /** Office-local date, yyyy-MM-dd. */
  date: string;
  /** Office-local slot start, HH:mm. Unique together with date. */
  time: string;
  createdAt: CreatedAt;
  isConfirmed: Generated<boolean>;
}

export interface LoginAttemptsTable {
  id: Generated<string>;
  /** What was throttled: `user:<username>` or `ip:<address>`. */
  key: string;
  attemptedAt: CreatedAt;
}

export interface Database {
  users: UsersTable;
  contactSubmissions: ContactSubmissionsTable;
  newsletterSubscribers: NewsletterSubscribersTable;
  meetings: MeetingsTable;
  loginAttempts: LoginAttemptsTable;
}

export type UserRow = Selectable<UsersTable>;
export type ContactSubmissionRow = Selectable<ContactSubmissionsTable>;
export type NewContactSubmission = Insertable<ContactSubmissionsTable>;
export type MeetingRow = Selectable<MeetingsTable>;
export type NewMeeting = Insertable<MeetingsTable>;
export type MeetingUpdate = Updateable<MeetingsTable>;
