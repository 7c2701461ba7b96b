import type { Migration } from "kysely";
import * as initial from "./2026-11-21T00-00_initial.ts";
import * as notifications from "./2026-11-22T00-00_notifications.ts";
import * as adminListPaging from "./2026-11-22T12-00_admin-list-paging.ts";
import * as enquiries from "./2026-11-22T23-45_enquiries.ts";
import * as rateLimits from "./2026-11-23T01-00_rate-limits.ts";
import * as privacy from "./2026-11-23T02-00_privacy.ts";
import * as meetingLifecycle from "./2026-11-23T03-00_meeting-lifecycle.ts";
import * as adminPipeline from "./2026-11-23T04-00_admin-pipeline.ts";
import * as busyCalendars from "./2026-11-25T01-00_busy-calendars.ts";
import * as userRoles from "./2026-11-25T01-00_user-roles.ts";
import * as bookingGuardrails from "./2026-11-25T03-30_booking-guardrails.ts";
import * as meetingsFeed from "./2026-11-25T03-30_meetings-feed.ts";
import * as calendarOwner from "./2026-11-27T20-00_calendar-owner.ts";
import * as panelLanguage from "./2026-11-27T21-00_panel-language.ts";
import * as sources from "./2026-11-27T21-30_sources.ts";
import * as adminSecurity from "./2026-11-27T22-00_admin-security.ts";
import * as secondFactors from "./2026-11-28T01-00_second-factors.ts";
import * as viewKeys from "./2026-11-28T02-00_view-keys.ts";
import * as stepUp from "./2026-11-29T01-00_step-up.ts";
import * as doorRules from "./2026-11-29T02-00_door-rules.ts";
import * as leadStages from "./2026-11-29T10-00_lead-stages.ts";
import * as leadMessages from "./2026-11-29T10-30_lead-messages.ts";
import * as leadDigests from "./2026-11-29T11-00_lead-digests.ts";
import * as leadNotes from "./2026-11-29T11-00_lead-notes.ts";
import * as leadOwnerStage from "./2026-11-29T11-30_lead-owner-stage.ts";
import * as consultants from "./2026-11-29T12-00_consultants.ts";
import * as meetingChanges from "./2026-11-29T13-00_meeting-changes.ts";

/**
 * Every migration, by name, in the order they run. A static record rather than a folder scan, so
 * bundled functions and node scripts see the same list. Add new migrations at the end.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-21T00-00_initial": initial,
  "2026-11-22T00-00_notifications": notifications,
  "2026-11-22T12-00_admin-list-paging": adminListPaging,
  "2026-11-22T23-45_enquiries": enquiries,
  "2026-11-23T01-00_rate-limits": rateLimits,
  "2026-11-23T02-00_privacy": privacy,
  "2026-11-23T03-00_meeting-lifecycle": meetingLifecycle,
  "2026-11-23T04-00_admin-pipeline": adminPipeline,
  "2026-11-25T01-00_busy-calendars": busyCalendars,
  "2026-11-25T01-00_user-roles": userRoles,
  "2026-11-25T03-30_booking-guardrails": bookingGuardrails,
  "2026-11-25T03-30_meetings-feed": meetingsFeed,
  "2026-11-27T20-00_calendar-owner": calendarOwner,
  "2026-11-27T21-00_panel-language": panelLanguage,
  "2026-11-27T21-30_sources": sources,
  "2026-11-27T22-00_admin-security": adminSecurity,
  "2026-11-28T01-00_second-factors": secondFactors,
  "2026-11-28T02-00_view-keys": viewKeys,
  "2026-11-29T01-00_step-up": stepUp,
  "2026-11-29T02-00_door-rules": doorRules,
  "2026-11-29T10-00_lead-stages": leadStages,
  "2026-11-29T10-30_lead-messages": leadMessages,
  "2026-11-29T11-00_lead-digests": leadDigests,
  "2026-11-29T11-00_lead-notes": leadNotes,
  "2026-11-29T11-30_lead-owner-stage": leadOwnerStage,
  "2026-11-29T12-00_consultants": consultants,
  "2026-11-29T13-00_meeting-changes": meetingChanges,
};
