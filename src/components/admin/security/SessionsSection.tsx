/** The Security page's "Your sessions": where this account is signed in; end one, or all but this one. */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import type { SessionInfo } from "#shared/api/security.ts";
import { $sessionsVersion, sessionsChanged } from "#src/stores/sessions.ts";
import { showToast } from "#src/stores/toasts.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { apiErrorText } from "../api-errors";
import { useAdminCopy } from "../copy";
import { useSignedIn } from "../session";
import { BusyButton, ErrorNote, iconPaths, Loading, Section } from "../ui";
import { endMySession, mySessions } from "./security-api";
import { SessionList } from "./SessionList";

export default function SessionsSection() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  const version = useStore($sessionsVersion);
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [ending, setEnding] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let live = true;
    mySessions().then(
      (found) => {
        if (!live) return;
        setSessions(found);
        setLoadFailed(false);
      },
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [user, version]);

  if (!texts || !user) return null;
  const { copy, p } = texts;
  const c = copy.security.sessions;
  const others = (sessions ?? []).filter((s) => !s.current);

  const end = async (ids: string[], busyKey: string) => {
    setError(null);
    setEnding(busyKey);
    let ended = 0;
    try {
      for (const id of ids) {
        await endMySession(id).catch((failure: unknown) => {
          // Already ended elsewhere (404): what was asked for is true.
          if (!(failure instanceof ApiError && failure.status === 404)) throw failure;
        });
        ended += 1;
      }
      showToast({ title: ids.length === 1 ? c.ended : p(c.endedAll, ended), variant: "success" });
    } catch (failure) {
      setError(apiErrorText(failure, copy.apiErrors));
    } finally {
      setEnding(null);
      sessionsChanged();
    }
  };

  return (
    <Section id="sessions" title={c.title} intro={c.intro} icon={iconPaths.logout}>
      {loadFailed ? (
        <ErrorNote className="mt-4">{c.loadError}</ErrorNote>
      ) : !sessions ? (
        <Loading>{copy.security.loading}</Loading>
      ) : (
        <>
          <SessionList
            sessions={sessions}
            ending={ending}
            label={c.title}
            onEnd={(session) => void end([session.id], session.id)}
          />
          <ErrorNote className="mt-3">{error}</ErrorNote>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {others.length > 1 ? (
              <BusyButton
                busy={ending === "all"}
                disabled={ending !== null}
                label={c.endAll}
                busyLabel={c.ending}
                icon={iconPaths.logout}
                onClick={() =>
                  void end(
                    others.map((s) => s.id),
                    "all",
                  )
                }
              />
            ) : others.length === 0 ? (
              <p className="text-sm text-muted">{c.onlyThis}</p>
            ) : null}
          </div>
        </>
      )}
    </Section>
  );
}
