/** The dashboard's figures and warnings (GET /api/admin/stats, GET /api/admin/alerts). */
import type { FailingCalendar } from "./calendars.ts";

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
