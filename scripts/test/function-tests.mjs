// The tests written for each function (functions/<name>.ts): its own API test files
// (functions/_tests/<api>.test.ts, or a path) and the browser specs that exercise it (e2e/<spec>.spec.ts).
//
// `npm run test:changed` (scripts/test/changed.mjs) walks from a changed module to the modules that
// import it and stops at a function: past it, only the tests listed here run. Tests that call a
// function only to make their own records (an admin spec posting an enquiry, views.test.ts booking a
// meeting to count its source) are left out on purpose: they run when the function itself changes
// (the vitest files, as they import it) and in the full run.
//
// scripts/test/changed.test.ts holds this table to the tree: every function has an entry, every file
// named exists, and every API test named imports its function. A new function or spec therefore
// needs a line here; until it has one, test:changed runs whatever imports it or names its addresses.

/** function name → { api: test files, browser: specs }, both by short name. */
export const FUNCTION_TESTS = {
  "account-factors": { api: ["factors"], browser: ["admin-factors"] },
  "account-passkeys": { api: ["factors"], browser: ["admin-factors"] },
  "account-password": { api: ["sessions"], browser: ["admin-security"] },
  "account-sessions": { api: ["sessions"], browser: ["admin-security"] },
  "account-step-up": { api: ["step-up"], browser: ["step-up"] },
  "admin-alerts": { api: ["busy-calendars", "abuse"], browser: ["calendar-feeds"] },
  "admin-audit": { api: ["audit", "door-rules"], browser: ["admin-security"] },
  "admin-availability": {
    api: ["availability", "busy-calendars", "radicale", "meetings-feed"],
    browser: ["calendar-feeds", "meeting-manage"],
  },
  "admin-booking-rules": { api: ["booking-rules", "meeting-place"], browser: ["booking-rules"] },
  "admin-due": { api: ["follow-ups"], browser: ["due"] },
  "admin-export": { api: ["admin-pipeline", "audit"], browser: ["admin-pipeline", "admin-security"] },
  "admin-leads": { api: ["leads"], browser: ["lead-desk", "lead-desk-views", "lead-path-fa"] },
  "admin-consultants": {
    api: ["meeting-staff", "consultant-hours"],
    browser: ["consultant-staff", "consultants-panel"],
  },
  "admin-lost-reasons": { api: ["leads"], browser: ["lead-desk", "lead-desk-views"] },
  "admin-meetings": {
    api: ["meeting-lifecycle", "booking-rules", "meeting-place", "meeting-staff"],
    browser: ["admin", "consultant-staff"],
  },
  "admin-newsletter": { api: ["newsletter"], browser: [] },
  "admin-note": { api: ["person-timeline"], browser: ["person-timeline"] },
  "admin-notes": { api: ["person-timeline", "admin-pipeline"], browser: ["person-timeline", "admin-pipeline"] },
  "admin-people": { api: ["person-timeline"], browser: ["person-timeline"] },
  "admin-privacy": { api: ["privacy", "door-rules"], browser: ["privacy"] },
  "admin-replies": { api: ["lead-replies"], browser: ["lead-replies"] },
  "admin-security-settings": { api: ["factors"], browser: ["admin-security"] },
  "admin-sessions": { api: ["sessions"], browser: ["admin-security"] },
  "admin-sources": { api: ["views"], browser: ["sources"] },
  "admin-stats": { api: ["admin-pipeline"], browser: ["admin-pipeline"] },
  "admin-submissions": { api: ["admin", "leads", "privacy"], browser: ["admin", "admin-pipeline", "lead-desk"] },
  "admin-users": { api: ["roles", "sessions"], browser: ["editors", "admin-security"] },
  // The three public forms: their API tests (answers, the bot traps and limits, control characters,
  // database round trips) and the specs that fill them in, with JavaScript and without.
  contact: {
    api: ["public", "abuse", "control-characters", "round-trips"],
    browser: ["enquiry", "form-guard", "first-paint"],
  },
  content: { api: ["content", "github-publisher"], browser: ["content-editor"] },
  "detect-language": { api: ["public"], browser: ["detect-language"] },
  "form-token": { api: ["abuse"], browser: ["form-guard", "toasts-newsletter"] },
  "inbound-mailgun": { api: ["lead-replies"], browser: ["lead-replies"] },
  invitation: { api: ["invitations", "roles"], browser: ["step-up"] },
  "login-factors": { api: ["factors", "login-door"], browser: ["admin-factors"] },
  login: { api: ["admin", "login-door", "login-throttle"], browser: ["admin"] },
  logout: { api: ["admin", "sessions"], browser: ["admin"] },
  "meeting-manage": {
    api: ["meeting-lifecycle", "manage-limits", "meetings-feed"],
    browser: ["meeting-manage"],
  },
  "meetings-feed": { api: ["meetings-feed"], browser: ["calendar-feeds"] },
  meetings: {
    api: ["meetings", "abuse", "round-trips"],
    browser: ["booking", "first-paint", "booking-consultant"],
  },
  "newsletter-links": { api: ["newsletter"], browser: ["privacy"] },
  newsletter: {
    api: ["public", "newsletter", "newsletter-limits", "abuse", "control-characters", "round-trips"],
    browser: ["toasts-newsletter", "first-paint"],
  },
  "outbox-retry": { api: ["notifications", "follow-ups"], browser: [] },
  // Its work is the retention repository's, tested there (db/retention.repository.integration.test.ts).
  retention: { api: [], browser: [] },
  user: { api: ["admin", "panel-language", "roles"], browser: ["admin-languages"] },
  views: { api: ["views"], browser: ["sources"] },
};
