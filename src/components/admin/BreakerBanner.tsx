import { useEffect, useState } from "react";
import { apiRequest } from "#src/lib/api-client.ts";
import type { AdminAlertsAnswer } from "#shared/api/stats.ts";
import { ROUTES } from "#shared/routes.ts";
import { AVAILABILITY_PATH } from "./api";
import { useCopy } from "./copy";
import { Data, Filled } from "./ui";

type Alerts = AdminAlertsAnswer["data"];

const alertClass = "mt-6 rounded-2xl border border-amber-400 bg-amber-50 px-5 py-4 text-amber-950";

/**
 * The leads page's warnings (GET /api/admin/alerts): the public forms are being flooded (while the
 * circuit breaker is tripped, visitors get no acknowledgement emails, but every lead is still
 * stored and notified), and connected calendars that cannot be read (named, with since when).
 * Read once when the leads page opens (the admin pages never poll); shows nothing otherwise, or when
 * the answer cannot be had.
 */
export function BreakerBanner() {
  const { copy, f, p, dateTime } = useCopy();
  const c = copy.alerts;
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
        <div role="alert" className={alertClass}>
          <p className="font-semibold">{c.breakerTitle}</p>
          <p className="mt-1 text-sm">
            {f(c.breakerText, { count: breaker.submissions, minutes: breaker.windowMinutes, limit: breaker.limit })}
          </p>
        </div>
      )}
      {calendars.length > 0 && (
        <div role="alert" className={alertClass} data-testid="calendar-alert">
          <p className="font-semibold">{p(c.calendars, calendars.length)}</p>
          <ul role="list" className="mt-1 grid gap-1 text-sm">
            {calendars.map((cal) => (
              <li key={`${cal.name}-${cal.failingSince}`}>
                <Filled
                  text={c.failingSince}
                  values={{ name: <Data>{cal.name}</Data>, date: dateTime(cal.failingSince) }}
                />{" "}
                {cal.reason && <span className="[overflow-wrap:anywhere]">{cal.reason}. </span>}
                {cal.stale ? c.stale : c.notStale}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm">
            <a href={AVAILABILITY_PATH} className="font-semibold underline underline-offset-4">
              {c.check}
            </a>
          </p>
        </div>
      )}
    </>
  );
}
