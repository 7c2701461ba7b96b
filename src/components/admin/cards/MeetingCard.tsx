/** A meeting's card in the meetings list: when, who, its confirmation, cancellation, outcome and note. */
import { useState } from "react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { meetingReference } from "#shared/leads.ts";
import { saveMeetingNote } from "../api";
import { CancelMeetingButton } from "../CancelMeetingButton";
import { MeetingConsultant } from "../consultants/MeetingConsultant";
import { StaffMeetingActions } from "../consultants/StaffMeetingActions";
import { useCopy } from "../copy";
import { MeetingOutcome } from "../MeetingOutcome";
import { NoteEditor } from "../NoteEditor";
import { LeadSourceField } from "../sources/LeadSource.tsx";
import type { CardControls, ReplaceItem } from "../StatusList";
import { Badge, Icon, iconPaths } from "../ui";
import { Card, Field, Stamp, ToggleButton } from "./Card";

export function MeetingCard({
  item: listed,
  controls,
  replace,
  onOutcome,
}: {
  item: AdminMeeting;
  controls: CardControls;
  replace: ReplaceItem<AdminMeeting>;
  /** After an outcome is saved (the figures count them). */
  onOutcome?: () => void;
}) {
  const { copy, languageName, date, time, dateTime } = useCopy();
  const c = copy.cards;
  const titleId = `meeting-${listed.id}-title`;
  // A cancellation answers the updated meeting; the card shows it at once.
  const [cancelled, setCancelled] = useState<AdminMeeting | null>(null);
  const item = cancelled?.id === listed.id ? cancelled : listed;
  const badge = item.cancelledAt ? (
    <Badge tone="off">{c.cancelled}</Badge>
  ) : (
    <Badge tone={item.isConfirmed ? "done" : "pending"}>{item.isConfirmed ? c.confirmed : c.pending}</Badge>
  );
  return (
    <Card
      id={`meeting-${item.id}`}
      title={item.name}
      email={item.email}
      emailStatus={item.emailStatus}
      note={
        <NoteEditor
          note={item.note}
          describedBy={titleId}
          reference={meetingReference(item.id)}
          save={async (text) => {
            const updated = await saveMeetingNote(item.id, text);
            if (cancelled) setCancelled(updated);
            replace(updated);
          }}
        />
      }
      twoColumns="always"
      badge={badge}
      footer={
        <>
          <Stamp label={c.requestedOn} iso={item.createdAt} />
          <MeetingOutcome
            meeting={item}
            describedBy={titleId}
            onSaved={(updated) => {
              if (cancelled) setCancelled(updated);
              replace(updated);
              onOutcome?.();
            }}
          />
          {item.cancelledAt ? (
            <p className="text-sm font-medium text-muted">
              {(item.cancelledBy === "visitor" ? c.cancelledByVisitor : c.cancelledByAdmin).replace(
                "{{date}}",
                dateTime(item.cancelledAt),
              )}
            </p>
          ) : (
            <div className="flex flex-wrap gap-2 sm:justify-end">
              <StaffMeetingActions meeting={item} describedBy={titleId} onChanged={replace} />
              <CancelMeetingButton meeting={item} describedBy={titleId} onCancelled={setCancelled} />
              <ToggleButton
                done={item.isConfirmed}
                doLabel={c.confirmMeeting}
                undoLabel={c.markPending}
                describedBy={titleId}
                controls={controls}
              />
            </div>
          )}
        </>
      }
    >
      <Field label={c.date}>
        <time dateTime={item.date}>{date(item.date)}</time>
      </Field>
      <Field label={c.time}>
        <time dateTime={item.time}>{time(item.time)}</time>
      </Field>
      <Field label={c.language}>{languageName(item.language)}</Field>
      <Field label={copy.staffMeetings.consultant}>
        <MeetingConsultant meeting={item} />
      </Field>
      <Field label={c.phone}>
        <a
          href={`tel:${item.phone.replace(/[^\d+]/g, "")}`}
          dir="ltr"
          translate="no"
          className="inline-flex items-center gap-1.5 py-1 font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          <Icon path={iconPaths.phone} />
          {item.phone}
        </a>
      </Field>
      <LeadSourceField source={item.source} />
    </Card>
  );
}
