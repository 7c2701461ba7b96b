/** The figures on the leads page (GET /api/admin/stats), refreshed after every status change. */
import { useEffect, useState } from "react";
import type { AdminStats } from "#shared/api/stats.ts";
import { fetchStats } from "./api";
import { useCopy } from "./copy";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; stats: AdminStats };

function Figure({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="card flex min-w-0 flex-col-reverse justify-end gap-1 p-4">
      <dt className="text-xs font-semibold uppercase leading-snug tracking-wider text-muted">
        {label}
        {detail && <span className="mt-0.5 block font-normal normal-case tracking-normal">{detail}</span>}
      </dt>
      <dd className="text-2xl font-bold tabular-nums text-brand-950 sm:text-3xl">{value}</dd>
    </div>
  );
}

/** `version`: bump it to fetch the figures again (after a status change). */
export function StatsBar({ version }: { version: number }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const { copy, f, n } = useCopy();
  const c = copy.stats;

  useEffect(() => {
    let active = true;
    fetchStats()
      .then((stats) => active && setState({ status: "ready", stats }))
      .catch(() => active && setState({ status: "error" }));
    return () => {
      active = false;
    };
  }, [version]);

  if (state.status === "error") {
    return (
      <p role="status" className="mt-8 text-sm text-muted">
        {c.failed}
      </p>
    );
  }
  const stats = state.status === "ready" ? state.stats : null;
  const show = (value: number | undefined) => (value === undefined ? "–" : n(value));
  const recent = stats ? f(copy.outcome.statsWindow, { days: stats.windowDays }) : undefined;
  return (
    <section aria-labelledby="figures-title" aria-busy={!stats} className="mt-8">
      <h2 id="figures-title" className="sr-only">
        {c.heading}
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <Figure label={c.newThisWeek} value={show(stats?.newThisWeek)} />
        <Figure label={c.pending} value={show(stats?.pending)} />
        <Figure label={c.next7Days} value={show(stats?.meetingsNext7Days)} />
        <Figure
          label={c.onTime}
          value={
            stats?.processedOnTime == null
              ? "–"
              : n(stats.processedOnTime, { style: "percent", maximumFractionDigits: 0 })
          }
          detail={stats ? f(c.onTimeOf, { count: n(stats.processedOnTimeOf), days: stats.windowDays }) : undefined}
        />
        <Figure label={copy.outcome.statsDone} value={show(stats?.meetingsDone)} detail={recent} />
        <Figure label={copy.outcome.statsNoShow} value={show(stats?.meetingsNoShow)} detail={recent} />
      </dl>
    </section>
  );
}
