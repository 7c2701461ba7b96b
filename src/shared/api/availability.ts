/** The office's availability: hours, closures and booking rules as the admin edits them, and the calendar and slots the date picker reads. */
import type { PublicConsultant } from "../consultants.ts";
import type { DutchHoliday } from "../holidays.ts";
import type { BookingGuardrails, IsoWeekday, MeetingPlaceKind, OpeningHours } from "../office.ts";

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
  /**
   * The consultants a visitor can book (active ones), with the languages they speak and the
   * services they take; their names, photos and bios are the team section's (src/data/team.json).
   * The weekdays, hours, closed and full dates above are those of the choice asked for.
   */
  consultants: PublicConsultant[];
}
/** GET /api/meetings/calendar?consultant=any|id&language=…&service=… */
export interface CalendarAnswer {
  success: true;
  data: OfficeCalendar;
}
/** GET /api/meetings/available-slots?date=yyyy-MM-dd&consultant=any|id&language=…: the free start times of the choice. */
export interface SlotsAnswer {
  success: true;
  data: string[];
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
