/** The figures above the tabs (GET /api/admin/stats), refreshed after every status change. */
import { useEffect, useState } from "react";
import type { AdminStats } from "#shared/api/stats.ts";
import { fetchStats } from "./api";
import { fill } from "./copy";
import { useAdminCopy } from "./MeetingOutcome";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; stats: AdminStats };

const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 0 });
const count = new Intl.NumberFormat("en-US");

function Figure({
  label,
  value,
  detail,
  lang,
  dir,
}: {
  label: string;
  value: string;
  detail?: string;
  lang?: string;
  dir?: "ltr" | "rtl";
}) {
  return (
    <div lang={lang} dir={dir} className="card flex min-w-0 flex-col-reverse justify-end gap-1 p-4">
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
  const texts = useAdminCopy();

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
        The figures could not be loaded; the lists below still work.
      </p>
    );
  }
  const stats = state.status === "ready" ? state.stats : null;
  const show = (n: number | undefined) => (n === undefined ? "–" : count.format(n));
  return (
    <section aria-labelledby="figures-title" aria-busy={!stats} className="mt-8">
      <h2 id="figures-title" className="sr-only">
        At a glance
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <Figure label="New enquiries this week" value={show(stats?.newThisWeek)} />
        <Figure label="Pending enquiries" value={show(stats?.pending)} />
        <Figure label="Meetings in the next 7 days" value={show(stats?.meetingsNext7Days)} />
        <Figure
          label="Processed within 2 working days"
          value={stats?.processedOnTime == null ? "–" : percent.format(stats.processedOnTime)}
          detail={
            stats ? `of ${count.format(stats.processedOnTimeOf)} in the last ${stats.windowDays} days` : undefined
          }
        />
        {texts && (
          <>
            <Figure
              lang={texts.lang}
              dir={texts.dir}
              label={texts.copy.outcome.statsDone}
              value={show(stats?.meetingsDone)}
              detail={stats ? fill(texts.lang, texts.copy.outcome.statsWindow, { days: stats.windowDays }) : undefined}
            />
            <Figure
              lang={texts.lang}
              dir={texts.dir}
              label={texts.copy.outcome.statsNoShow}
              value={show(stats?.meetingsNoShow)}
              detail={stats ? fill(texts.lang, texts.copy.outcome.statsWindow, { days: stats.windowDays }) : undefined}
            />
          </>
        )}
      </dl>
    </section>
  );
}
