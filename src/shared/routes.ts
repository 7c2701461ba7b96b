/**
 * Every address the API answers on, once: each function's `export const config = { path }` names
 * its entries here, and the islands, the admin panel and the no-JavaScript forms call the same
 * entries. A path with `:id` or `:lang` is a pattern (URLPattern, as Netlify matches it); `fill`
 * puts the values in.
 */
export const ROUTES = {
  contact: "/api/contact",
  newsletter: "/api/newsletter",
  formToken: "/api/form-token",
  detectLanguage: "/api/detect-language",
  login: "/api/login",
  /** The login's second step (a TOTP or recovery code) and the passkey sign-in. */
  loginSecondFactor: "/api/login/second-factor",
  loginPasskeyOptions: "/api/login/passkey/options",
  loginPasskey: "/api/login/passkey",
  logout: "/api/logout",
  user: "/api/user",
  /** Counted page views: the pages' inline beacon (POST) and their no-JavaScript image (GET). */
  views: "/api/views",

  /** The signed-in person's own account (admins and editors): sessions, password. */
  account: {
    sessions: "/api/account/sessions",
    session: "/api/account/sessions/:id",
    password: "/api/account/password",
    /** The second factor: status, TOTP set-up and removal, recovery codes, the notices' address. */
    factors: "/api/account/factors",
    totp: "/api/account/factors/totp",
    totpConfirm: "/api/account/factors/totp/confirm",
    totpRemove: "/api/account/factors/totp/remove",
    recoveryCodes: "/api/account/factors/recovery-codes",
    email: "/api/account/email",
    passkeys: "/api/account/passkeys",
    passkeyOptions: "/api/account/passkeys/options",
    passkey: "/api/account/passkeys/:id",
    /** A proof made again (password, code or passkey) that lets this session change what protects an account. */
    stepUp: "/api/account/step-up",
    stepUpOptions: "/api/account/step-up/options",
  },
  /** A lead's answer to a reply, posted by Mailgun's route (signed; functions/inbound-mailgun.ts). */
  inboundMailgun: "/api/inbound/mailgun-mime",
  /** An invitation link's page asks (public: the token is the secret) and answers with the new password. */
  invitation: "/api/invitation",
  invitationAccept: "/api/invitation/accept",

  meetings: {
    calendar: "/api/meetings/calendar",
    availableSlots: "/api/meetings/available-slots",
    schedule: "/api/meetings/schedule",
    manage: "/api/meetings/manage",
    manageMove: "/api/meetings/manage/move",
    manageCancel: "/api/meetings/manage/cancel",
    /** The team's private calendar subscription (the token is its secret). */
    feed: "/api/meetings-feed/:token",
  },

  /** The newsletter's email links lead to static pages whose button posts back to the same address. */
  newsletterLinks: {
    confirm: "/:lang/newsletter/confirm",
    unsubscribe: "/:lang/newsletter/unsubscribe",
  },

  /** The content editor's texts: editors and admins (the admin pages' own session). */
  content: {
    texts: "/api/content/texts",
    reviewed: "/api/content/reviewed",
    status: "/api/content/status",
    history: "/api/content/history",
    undo: "/api/content/undo",
    team: "/api/content/team",
  },

  admin: {
    alerts: "/api/admin/alerts",
    stats: "/api/admin/stats",
    users: "/api/admin/users",
    account: "/api/admin/users/:id",
    sessions: "/api/admin/sessions",
    session: "/api/admin/sessions/:id",
    audit: "/api/admin/audit",
    /** Every account must have a second factor (on or off). */
    securitySettings: "/api/admin/security-settings",
    auditCsv: "/api/admin/audit.csv",
    /** The enquiries keep their published name, "submissions". */
    enquiries: "/api/admin/submissions",
    enquiry: "/api/admin/submissions/:id",
    enquiryNote: "/api/admin/submissions/:id/note",
    /** The lead desk: a reply's template preview and the lead's messages (GET), sending a reply (POST). */
    enquiryReply: "/api/admin/submissions/:id/reply",
    leadBoard: "/api/admin/leads/board",
    leadEvents: "/api/admin/leads/:id/events",
    lostReasons: "/api/admin/lost-reasons",
    lostReason: "/api/admin/lost-reasons/:id",
    meetings: "/api/admin/meetings",
    /** The consultants, with the signed-in account's marked (functions/admin-consultants.ts). */
    consultants: "/api/admin/consultants",
    consultant: "/api/admin/consultants/:id",
    meeting: "/api/admin/meetings/:id",
    meetingNote: "/api/admin/meetings/:id/note",
    person: "/api/admin/people/:ref",
    personNotes: "/api/admin/people/:ref/notes",
    note: "/api/admin/notes/:id",
    meetingCancel: "/api/admin/meetings/:id/cancel",
    meetingOutcome: "/api/admin/meetings/:id/outcome",
    /** Staff hand a meeting to another consultant (functions/_lib/booking/staff-changes.ts). */
    meetingConsultant: "/api/admin/meetings/:id/consultant",
    /** Staff move a meeting for the visitor. */
    meetingMove: "/api/admin/meetings/:id/move",
    exportEnquiries: "/api/admin/export/submissions",
    exportMeetings: "/api/admin/export/meetings",
    availability: "/api/admin/availability",
    bookingRules: "/api/admin/booking-rules",
    closures: "/api/admin/availability/closures",
    closure: "/api/admin/availability/closures/:id",
    calendars: "/api/admin/availability/calendars",
    calendarTest: "/api/admin/availability/calendars/test",
    meetingsFeed: "/api/admin/availability/meetings-feed",
    calendar: "/api/admin/availability/calendars/:id",
    calendarRefresh: "/api/admin/availability/calendars/:id/refresh",
    newsletter: "/api/admin/newsletter",
    subscribersCsv: "/api/admin/newsletter/subscribers.csv",
    privacyExport: "/api/admin/privacy/export",
    privacyErase: "/api/admin/privacy/erase",
    /** The Sources view: one chart's figures (JSON, or CSV with format=csv). */
    sources: "/api/admin/sources",
    /** The leads due today: follow-ups that have come and overdue waiting leads (the dashboard's Due panel). */
    due: "/api/admin/due",
  },
} as const;

/** A pattern with its `:name` parameters filled in (each value URL-encoded). */
export function fill(pattern: string, values: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (whole, name: string) =>
    name in values ? encodeURIComponent(String(values[name])) : whole,
  );
}

/** A path with its query string (none when `query` is empty). */
export function withQuery(path: string, query: Record<string, string> | URLSearchParams): string {
  const text = new URLSearchParams(query).toString();
  return text ? `${path}?${text}` : path;
}
