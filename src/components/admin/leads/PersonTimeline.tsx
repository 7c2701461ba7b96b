/**
 * /admin/person?ref=E-00042: one person's timeline for an admin, opened by a record's reference (the
 * address never goes in the URL): their enquiries, meetings, emails, messages, notes and changes,
 * newest first, with their newsletter status; notes are added here and edited by their author.
 */
import { useEffect, useState } from "react";
import type { PersonNote, PersonTimelineAnswer } from "#shared/api/timeline.ts";
import type { Language } from "#shared/languages.ts";
import type { ServiceNames } from "#shared/services.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { AdminOnly } from "../AdminOnly";
import { LEADS_PATH, fetchPerson } from "../api";
import { loadConsultants } from "../consultants/store";
import { useCopy } from "../copy";
import { BusyButton, Data, EmptyState, ErrorNote, iconPaths, PageSpinner, useAction } from "../ui";
import { NoteForm } from "./NoteForm";
import { TimelineList } from "./TimelineList";

/** `serviceNames`: the catalogue's names in every language, read from the locale files by the page. */
export default function PersonTimeline({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  return (
    <AdminOnly>
      {() => (
        <PersonView reference={new URLSearchParams(location.search).get("ref") ?? ""} serviceNames={serviceNames} />
      )}
    </AdminOnly>
  );
}

type Loaded =
  { state: "loading" } | { state: "missing" } | { state: "failed" } | { state: "ready"; data: PersonTimelineAnswer };

function PersonView({ reference, serviceNames }: { reference: string; serviceNames: Record<Language, ServiceNames> }) {
  const { copy, lang, dir } = useCopy();
  const c = copy.person;
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const load = () =>
    fetchPerson(reference).then(
      (data) => setLoaded({ state: "ready", data }),
      (error) => setLoaded({ state: error instanceof ApiError && error.status === 404 ? "missing" : "failed" }),
    );
  useEffect(() => {
    void load();
    // The moves name consultants (a list that cannot be read leaves their ids).
    void loadConsultants();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per page (the reference is the URL's)
  }, []);

  /** A note written, edited or deleted: the timeline shows it at once, then the server's whole answer. */
  const changed = (note: PersonNote, removed = false) => {
    if (loaded.state !== "ready") return;
    const others = loaded.data.items.filter((i) => i.kind !== "note" || i.note.id !== note.id);
    const items = removed ? others : [{ kind: "note" as const, at: note.createdAt, note }, ...others];
    items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    setLoaded({ state: "ready", data: { ...loaded.data, items } });
  };

  return (
    <div lang={lang} dir={dir} className="container-page py-8" data-testid="person-page">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-brand-950">
          {loaded.state === "ready" && loaded.data.person.name ? <Data>{loaded.data.person.name}</Data> : c.title}
        </h1>
        <a href={LEADS_PATH} className="btn btn-secondary">
          {c.back}
        </a>
      </div>
      {loaded.state === "loading" ? (
        <PageSpinner label={c.loading} />
      ) : loaded.state === "missing" ? (
        <div className="mt-6">
          <EmptyState icon={iconPaths.search} title={c.missing}>
            <a href={LEADS_PATH}>{c.back}</a>
          </EmptyState>
        </div>
      ) : loaded.state === "failed" ? (
        <div className="mt-6">
          <EmptyState tone="error" icon={iconPaths.alert} title={c.loadError}>
            <button type="button" className="btn btn-secondary mt-4" onClick={() => void load()}>
              {c.retry}
            </button>
          </EmptyState>
        </div>
      ) : (
        <Person
          data={loaded.data}
          onNote={changed}
          services={serviceNames[lang]}
          onOlder={(older) =>
            setLoaded({
              state: "ready",
              data: {
                ...loaded.data,
                items: [...loaded.data.items, ...older.items],
                truncated: older.truncated,
                next: older.next,
              },
            })
          }
        />
      )}
    </div>
  );
}

function Person({
  data,
  onNote,
  services,
  onOlder,
}: {
  data: PersonTimelineAnswer;
  onNote: (note: PersonNote, removed?: boolean) => void;
  services: ServiceNames;
  /** The older page arrived: append its items. */
  onOlder: (older: PersonTimelineAnswer) => void;
}) {
  const { copy, f, dateTime } = useCopy();
  const c = copy.person;
  const older = useAction();
  const showOlder = () =>
    older.run(async () => onOlder(await fetchPerson(data.person.reference, data.next!)), c.olderFailed);
  const { person, newsletter } = data;
  if (person.erased) return <p className="mt-6 rounded-lg bg-amber-50 p-4 text-amber-900">{c.erased}</p>;
  const since = newsletter.since ? dateTime(newsletter.since) : "";
  return (
    <>
      <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm text-muted sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">{c.emailLabel}</dt>
        <dd>
          <Data>{person.email}</Data>
        </dd>
        <dt className="font-semibold">{c.newsletter.label}</dt>
        <dd data-testid="newsletter-status">{f(c.newsletter[newsletter.status], { date: since })}</dd>
      </dl>
      <p className="mt-2 text-sm text-muted">{f(c.openedFrom, { reference: person.reference })}</p>
      <NoteForm reference={person.reference} onSaved={onNote} />
      <TimelineList items={data.items} onNote={onNote} services={services} />
      {data.next && (
        <div className="mt-4 flex flex-col items-center gap-2" data-testid="timeline-older">
          <BusyButton busy={older.busy !== null} label={c.older} busyLabel={c.loadingOlder} onClick={showOlder} />
          <ErrorNote>{older.error}</ErrorNote>
        </div>
      )}
    </>
  );
}
