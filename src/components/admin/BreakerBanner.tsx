import { useEffect, useState } from "react";
import { apiRequest } from "#src/lib/api-client.ts";
import type { AdminAlertsAnswer } from "#shared/api.ts";
import { ROUTES } from "#shared/routes.ts";

type Breaker = AdminAlertsAnswer["data"]["breaker"];

/**
 * The dashboard's warning that the public forms are being flooded (GET /api/admin/alerts): while
 * the circuit breaker is tripped, visitors get no acknowledgement emails, but every lead is still
 * stored and notified. Read once when the dashboard opens (the admin pages never poll); shows
 * nothing otherwise, or when the answer cannot be had.
 */
export function BreakerBanner() {
  const [breaker, setBreaker] = useState<Breaker | null>(null);

  useEffect(() => {
    let active = true;
    apiRequest<AdminAlertsAnswer>("GET", ROUTES.admin.alerts)
      .then((answer) => active && setBreaker(answer.data.breaker))
      .catch(() => {}); // the lists below report a lost session or database
    return () => {
      active = false;
    };
  }, []);

  if (!breaker?.tripped) return null;
  return (
    <div role="alert" className="mt-6 rounded-2xl border border-amber-400 bg-amber-50 px-5 py-4 text-amber-950">
      <p className="font-semibold">Acknowledgement emails are paused: the public forms are being flooded.</p>
      <p className="mt-1 text-sm">
        {breaker.submissions} submissions in the last {breaker.windowMinutes} minutes, over the limit of {breaker.limit}
        . Every enquiry and booking is still stored and you are still notified; visitors get their acknowledgements
        again when the rate falls below the limit. Limits are set in src/config/limits.ts.
      </p>
    </div>
  );
}
