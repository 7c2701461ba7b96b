/** The person's timeline, newest first: one line per item, each in the panel's words and dates. */
import { useState } from "react";
import type { MeetingSlot, PersonNote, TimelineItem } from "#shared/api/timeline.ts";
import { isLeadStage } from "#shared/leads.ts";
import { serviceDisplayName, type ServiceNames } from "#shared/services.ts";
import { showToast } from "#src/stores/toasts.ts";
import { deleteNote } from "../api";
import { useConsultantName } from "../consultants/MeetingConsultant";
import { useCopy, type AdminText } from "../copy";
import { ConfirmAction, iconPaths, MailText, problem, RowList } from "../ui";
import { NoteForm } from "./NoteForm";

export function TimelineList({
  items,
  onNote,
  services,
}: {
  items: TimelineItem[];
  onNote: (note: PersonNote, removed?: boolean) => void;
  services: ServiceNames;
}) {
  const text = useCopy();
  if (items.length === 0) return <p className="mt-6 text-muted">{text.copy.person.empty}</p>;
  return (
    <section aria-label={text.copy.person.timelineLabel}>
      <RowList data-testid="timeline">
        {items.map((item, i) => (
          <li key={item.kind === "note" ? `note-${item.note.id}` : `${item.kind}-${i}`} className="px-4 py-3">
            <p className="text-xs text-muted">
              <time dateTime={item.at}>{text.dateTime(item.at)}</time>
            </p>
            {item.kind === "note" ? (
              <NoteItem note={item.note} onNote={onNote} />
            ) : (
              <Line item={item} text={text} services={services} />
            )}
          </li>
        ))}
      </RowList>
    </section>
  );
}

/** One item that is not a note, as a sentence with its details. */
function Line({
  item,
  text,
  services,
}: {
  item: Exclude<TimelineItem, { kind: "note" }>;
  text: AdminText;
  services: ServiceNames;
}) {
  const { copy, f, date, time } = text;
  const c = copy.person.items;
  const stage = (s: string | null) => (s && isLeadStage(s) ? copy.leads.stages[s] : (s ?? c.none));
  switch (item.kind) {
    case "enquiry":
      return (
        <div data-testid="timeline-enquiry">
          <p className="font-semibold text-ink">
            {f(c.enquiry, {
              reference: item.reference,
              service: serviceDisplayName(item.service, services),
            })}
          </p>
          <p className="text-sm text-muted">
            {f(c.stageOwner, { stage: stage(item.stage), owner: item.owner ?? c.nobody })}
          </p>
          <p dir="auto" translate="no" className="mt-1 text-sm text-ink [overflow-wrap:anywhere]">
            {item.excerpt}
          </p>
        </div>
      );
    case "meeting":
      return (
        <p data-testid="timeline-meeting" className="font-semibold text-ink">
          {f(item.moved ? c.meetingMoved : c.meeting, {
            reference: item.reference,
            date: date(item.date),
            time: time(item.time),
          })}
        </p>
      );
    case "meeting-moved":
      return <MoveLine item={item} text={text} />;
    case "meeting-cancelled":
      return (
        <p className="text-ink">
          {f(item.by === "visitor" ? c.cancelledByThem : c.cancelledByUs, { reference: item.reference })}
        </p>
      );
    case "meeting-outcome":
      return (
        <p className="text-ink">
          {f(c.outcome, {
            reference: item.reference,
            outcome: item.outcome === "done" ? copy.outcome.done : copy.outcome.noShow,
          })}
        </p>
      );
    case "email":
      return (
        <div data-testid="timeline-email">
          <p className="text-ink">
            {c.email}{" "}
            <span className="text-sm text-muted">
              ({c.emailStatus[item.status as keyof typeof c.emailStatus] ?? item.status})
            </span>
          </p>
          <MailText text={item.subject} className="mt-1 text-sm text-ink [overflow-wrap:anywhere]" />
        </div>
      );
    case "message":
      return (
        <div data-testid={`timeline-message-${item.direction}`}>
          <p className="font-semibold text-ink">
            {item.direction === "in"
              ? f(c.messageIn, { reference: item.reference })
              : f(c.messageOut, { reference: item.reference, name: item.by ?? "" })}
          </p>
          <MailText text={item.subject} className="mt-1 text-sm font-medium text-ink [overflow-wrap:anywhere]" />
          <MailText text={item.text} className="whitespace-pre-line text-sm text-ink [overflow-wrap:anywhere]" />
        </div>
      );
    case "change": {
      const value = (v: string | null) =>
        item.change === "stage" ? stage(v) : item.change === "follow_up" && v ? date(v) : (v ?? c.none);
      const sentence = item.change === "stage" ? c.stage : item.change === "owner" ? c.owner : c.followUp;
      return (
        <p className="text-ink">
          {f(sentence, { reference: item.reference, from: value(item.from), to: value(item.to) })}
          {item.by ? <span className="text-sm text-muted"> · {f(c.by, { name: item.by })}</span> : null}
        </p>
      );
    }
  }
}

/**
 * A meeting's move (from one time to another) or hand-over (from one consultant to another, at the
 * same time), and who made it; consultants by their names in the panel's language.
 */
function MoveLine({ item, text }: { item: Extract<TimelineItem, { kind: "meeting-moved" }>; text: AdminText }) {
  const { f, date, time } = text;
  const c = text.copy.person.items;
  const from = useConsultantName(item.from.consultant);
  const to = useConsultantName(item.to.consultant);
  const slot = (s: MeetingSlot) => f(c.slot, { date: date(s.date), time: time(s.time) });
  const name = item.staff ?? "";
  return (
    <p className="text-ink" data-testid="timeline-moved">
      {item.from.consultant !== item.to.consultant
        ? f(c.handedOver, { reference: item.reference, from, to, name })
        : f(item.by === "visitor" ? c.movedByThem : c.movedByStaff, {
            reference: item.reference,
            from: slot(item.from),
            to: slot(item.to),
            name,
          })}
    </p>
  );
}

/** A note with its author; its author may edit or delete it. */
function NoteItem({ note, onNote }: { note: PersonNote; onNote: (note: PersonNote, removed?: boolean) => void }) {
  const { copy, f, dateTime } = useCopy();
  const c = copy.person;
  const [editing, setEditing] = useState(false);
  if (editing)
    return (
      <NoteForm
        reference={note.reference}
        note={note}
        onCancel={() => setEditing(false)}
        onSaved={(saved) => {
          setEditing(false);
          onNote(saved);
        }}
      />
    );
  return (
    <div data-testid="timeline-note">
      <p className="text-sm text-muted">
        {f(c.items.note, { name: note.by, reference: note.reference })}
        {note.updatedAt !== note.createdAt ? ` · ${f(c.items.edited, { date: dateTime(note.updatedAt) })}` : null}
      </p>
      <blockquote dir="auto" translate="no" className="mt-1 whitespace-pre-line text-ink [overflow-wrap:anywhere]">
        {note.text}
      </blockquote>
      {note.mine ? (
        <div className="mt-1 flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => setEditing(true)}
            className="inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            {c.notes.edit}
          </button>
          <ConfirmAction
            label={c.notes.delete}
            question={c.notes.deleteQuestion}
            confirmLabel={c.notes.delete}
            busyLabel={copy.common.saving}
            icon={iconPaths.trash}
            onConfirm={async () => {
              try {
                await deleteNote(note.id);
                showToast({ title: c.notes.deleted, variant: "success" });
                onNote(note, true);
                return true;
              } catch (error) {
                showToast({
                  title: c.notes.notSaved,
                  description: problem(error, copy.common.tryAgain),
                  variant: "destructive",
                });
                return false;
              }
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
