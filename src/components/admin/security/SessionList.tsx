import type { SessionInfo } from "#shared/api/security.ts";
import { useCopy } from "../copy";
import { Badge, BusyButton, iconPaths } from "../ui";

/** A country code's name in the panel's language (Intl knows them all). */
export function useRegionName(): (code: string) => string {
  const { lang } = useCopy();
  const names = new Intl.DisplayNames(lang, { type: "region" });
  return (code) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

/**
 * Live sessions, one row each: device and browser, the country it started in, when it was last active; the
 * asking one marked "this session" (it ends by logging out), every other with an End button.
 */
export function SessionList({
  sessions,
  ending,
  onEnd,
  label,
}: {
  sessions: SessionInfo[];
  /** The id being ended now (its button busy), or null. */
  ending: string | null;
  onEnd: (session: SessionInfo) => void;
  label: string;
}) {
  const { copy, f, dateTime } = useCopy();
  const c = copy.security.sessions;
  const region = useRegionName();
  return (
    <ul role="list" aria-label={label} className="mt-4 divide-y divide-line rounded-xl ring-1 ring-line">
      {sessions.map((session) => {
        const device = session.device || c.unknownDevice;
        const browser = session.browser || c.unknownBrowser;
        // The country in the panel's language; the server keeps the network to itself.
        const place = session.country ? region(session.country) : c.unknownPlace;
        const id = `session-${session.id}`;
        return (
          <li
            key={session.id}
            data-testid="session"
            className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0">
              <p id={id} className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                <span translate="no">
                  {device} · {browser}
                </span>
                {session.current && <Badge tone="done">{c.thisSession}</Badge>}
              </p>
              <p className="mt-1 text-sm break-words text-muted">
                <bdi>{place}</bdi>
              </p>
              <p className="mt-0.5 text-sm text-muted">
                {f(c.lastSeen, { when: dateTime(session.lastSeenAt) })} ·{" "}
                {f(c.since, { when: dateTime(session.createdAt) })}
              </p>
            </div>
            {!session.current && (
              <BusyButton
                busy={ending === session.id}
                disabled={ending !== null}
                label={c.end}
                busyLabel={c.ending}
                icon={iconPaths.logout}
                describedBy={id}
                onClick={() => onEnd(session)}
                className="self-start sm:self-auto"
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
