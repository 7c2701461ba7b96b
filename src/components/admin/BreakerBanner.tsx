import { useEffect, useState } from "react";
import { apiRequest } from "#src/lib/api-client.ts";
import type { AdminAlertsAnswer } from "#shared/api/stats.ts";
import { ROUTES } from "#shared/routes.ts";
import { AVAILABILITY_PATH } from "./api";
import { formatDateTime } from "./format";

type Alerts = AdminAlertsAnswer["data"];

/**
 * The dashboard's warnings (GET /api/admin/alerts): the public forms are being flooded (while the
 * circuit breaker is tripped, visitors get no acknowledgement emails, but every lead is still
 * stored and notified), and connected calendars that cannot be read (named, with since when).
 * Read once when the dashboard opens (the admin pages never poll); shows nothing otherwise, or when
 * the answer cannot be had.
 */
export function BreakerBanner() {
  const [alerts, setAlerts] = useState<Alerts | null>(null);

  useEffect(() => {
    let active = true;
    apiRequest<AdminAlertsAnswer>("GET", ROUTES.admin.alerts)
      .then((answer) => active && setAlerts(answer.data))
      .catch(() => {}); // the lists below report a lost session or database
    return () => {
      active = false;
    };
  }, []);

  if (!alerts) return null;
  const { breaker, calendars = [] } = alerts;
  return (
    <>
      {breaker.tripped && (
        <div role="alert" className="mt-6 rounded-2xl border border-amber-400 bg-amber-50 px-5 py-4 text-amber-950">
          <p className="font-semibold">Acknowledgement emails are paused: the public forms are being flooded.</p>
          <p className="mt-1 text-sm">
            {breaker.submissions} submissions in the last {breaker.windowMinutes} minutes, over the limit of{" "}
            {breaker.limit}. Every enquiry and booking is still stored and you are still notified; visitors get their
            acknowledgements again when the rate falls below the limit. Limits are set in src/shared/limits.ts.
          </p>
        </div>
      )}
      {calendars.length > 0 && (
        <div
          role="alert"
          className="mt-6 rounded-2xl border border-amber-400 bg-amber-50 px-5 py-4 text-amber-950"
          data-testid="calendar-alert"
        >
          <p className="font-semibold">
            {calendars.length === 1
              ? "A connected calendar cannot be read."
              : `${calendars.length} connected calendars cannot be read.`}
          </p>
          <ul role="list" className="mt-1 grid gap-1 text-sm">
            {calendars.map((c) => (
              <li key={`${c.name}-${c.failingSince}`}>
                <span className="font-semibold [overflow-wrap:anywhere]">{c.name}</span>: failing since{" "}
                <time dateTime={c.failingSince}>{formatDateTime(c.failingSince)}</time>
                {c.reason && `: ${c.reason}`}.{" "}
                {c.stale
                  ? "Bookings are stopped: no slot is offered until it works again or is removed."
                  : "Its last good copy still blocks its busy times."}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm">
            <a href={AVAILABILITY_PATH} className="font-semibold underline underline-offset-4">
              Check the calendars under Availability
            </a>
          </p>
        </div>
      )}
    </>
  );
}
