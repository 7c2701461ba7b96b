/** The enquiry and meeting cards of the dashboard. Every value is rendered as text. */
import { useState, type ReactNode } from "react";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { EmailStatus } from "#shared/api/common.ts";
import { LeadSourceField } from "./sources/LeadSource.tsx";
import { serviceDisplayName, type ServiceNames } from "#shared/services.ts";
import { meetingReference } from "#shared/leads.ts";
import { saveEnquiryNote, saveMeetingNote } from "./api";
import { useCopy } from "./copy";
import { CancelMeetingButton } from "./CancelMeetingButton";
import { NoteEditor } from "./NoteEditor";
import { ReplyComposer } from "./leads/ReplyComposer";
import { LeadPlan } from "./leads/LeadPlan";
import { MoveControl } from "./leads/MoveControl";
import { MeetingOutcome } from "./MeetingOutcome";
import type { CardControls, ReplaceItem } from "./StatusList";
import { Badge, BusyButton, ConfirmAction, Icon, iconPaths } from "./ui";

/** Shown when this record's notification emails keep failing (the outbox retries them). */
function EmailWarning({ status }: { status: EmailStatus | null }) {
  const { copy } = useCopy();
  if (status !== "failing") return null;
  return (
    <p
      role="note"
      data-testid="email-failing"
      className="mt-3 flex items-center gap-2 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-inset ring-red-200"
    >
      <Icon path={iconPaths.alert} />
      {copy.cards.emailFailing}
    </p>
  );
}

function Card({
  id,
  title,
  email,
  badge,
  children,
  footer,
  twoColumns,
  emailStatus,
  note,
}: {
  /** The card's id, `enquiry-17` or `meeting-4`: an anchor an admin can link to; its title is `${id}-title`. */
  id: string;
  title: string;
  email: string;
  badge: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  twoColumns?: "always" | "from-sm";
  emailStatus: EmailStatus | null;
  /** The internal note block (NoteEditor), under the fields. */
  note?: ReactNode;
}) {
  return (
    <article id={id} aria-labelledby={`${id}-title`} className="card flex w-full flex-col p-5 sm:p-6">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2
            id={`${id}-title`}
            dir="auto"
            translate="no"
            className="text-lg font-semibold leading-snug text-brand-950 [overflow-wrap:anywhere]"
          >
            {title}
          </h2>
          <a
            href={`mailto:${email}`}
            className="mt-0.5 inline-flex max-w-full items-center gap-1.5 py-1 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            <Icon path={iconPaths.mail} />
            <span className="[overflow-wrap:anywhere]" dir="ltr" translate="no">
              {email}
            </span>
          </a>
        </div>
        {badge}
      </header>
      <EmailWarning status={emailStatus} />
      <dl
        className={`mt-4 grid flex-1 content-start gap-x-6 gap-y-4 ${twoColumns === "always" ? "grid-cols-2" : "sm:grid-cols-2"}`}
      >
        {children}
      </dl>
      {note}
      <footer className="mt-5 flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
        {footer}
      </footer>
    </article>
  );
}

function Field({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "col-span-full" : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{label}</dt>
      <dd className="mt-1 text-ink">{children}</dd>
    </div>
  );
}

function Stamp({ label, iso }: { label: string; iso: string }) {
  const { dateTime } = useCopy();
  return (
    <p className="text-sm text-muted">
      {label} <time dateTime={iso}>{dateTime(iso)}</time>
    </p>
  );
}

/** The status button; while its change is sending, a disabled placeholder takes its place. */
function ToggleButton({
  done,
  doLabel,
  undoLabel,
  describedBy,
  controls,
}: {
  done: boolean;
  doLabel: string;
  undoLabel: string;
  describedBy: string;
  controls: CardControls;
}) {
  const { copy } = useCopy();
  return (
    <BusyButton
      busy={controls.pending}
      busyLabel={copy.cards.updating}
      label={done ? undoLabel : doLabel}
      icon={done ? iconPaths.undo : iconPaths.check}
      primary={!done && !controls.pending}
      onClick={controls.toggle}
      describedBy={describedBy}
      className="min-w-40"
    />
  );
}

export function EnquiryCard({
  item,
  controls,
  replace,
  serviceNames,
}: {
  item: AdminEnquiry;
  controls: CardControls;
  replace: ReplaceItem<AdminEnquiry>;
  serviceNames: ServiceNames;
}) {
  const { copy, languageName } = useCopy();
  const c = copy.cards;
  const titleId = `enquiry-${item.id}-title`;
  return (
    <Card
      id={`enquiry-${item.id}`}
      title={`${item.firstName} ${item.lastName}`}
      email={item.email}
      emailStatus={item.emailStatus}
      note={
        <NoteEditor
          note={item.note}
          describedBy={titleId}
          reference={item.reference}
          save={async (text) => replace(await saveEnquiryNote(item.id, text))}
        />
      }
      badge={
        <Badge tone={item.stage === "new" ? "pending" : item.stage === "lost" ? "off" : "done"}>
          {copy.leads.stages[item.stage]}
        </Badge>
      }
      footer={
        <>
          <div>
            <p className="text-xs font-semibold text-muted" dir="ltr" translate="no">
              {item.reference}
            </p>
            <Stamp label={c.submittedOn} iso={item.createdAt} />
          </div>
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <ReplyComposer id={item.id} name={item.firstName} describedBy={titleId} />
            {(item.stage === "new" || item.stage === "replied") && (
              <ToggleButton
                done={item.stage === "replied"}
                doLabel={c.markReplied}
                undoLabel={c.backToNew}
                describedBy={titleId}
                controls={controls}
              />
            )}
            <MoveControl lead={item} describedBy={titleId} onMoved={replace} />
            {controls.remove && (
              <ConfirmAction
                label={c.delete}
                question={c.deleteQuestion}
                confirmLabel={c.deleteForGood}
                busyLabel={c.deleting}
                icon={iconPaths.trash}
                describedBy={titleId}
                disabled={controls.pending}
                onConfirm={controls.remove}
              />
            )}
          </div>
        </>
      }
    >
      <Field label={c.company}>
        {item.company ? (
          <span className="[overflow-wrap:anywhere]" translate="no">
            {item.company}
          </span>
        ) : (
          <span className="text-muted italic">{c.notProvided}</span>
        )}
      </Field>
      <Field label={c.service}>{serviceDisplayName(item.service, serviceNames)}</Field>
      <Field label={c.language}>{languageName(item.language)}</Field>
      <LeadSourceField source={item.source} />
      <Field label={c.message} wide>
        <span
          data-testid="message"
          translate="no"
          className="block rounded-xl bg-surface px-3.5 py-3 leading-relaxed whitespace-pre-line [overflow-wrap:anywhere]"
        >
          {item.message}
        </span>
      </Field>
      {/* Its controls carry their own labels: the term is for the list's structure, read out only. */}
      <div className="col-span-full">
        <dt className="sr-only">{`${copy.leads.owner}, ${copy.leads.followUp}`}</dt>
        <dd>
          <LeadPlan lead={item} onChanged={replace} describedBy={titleId} />
        </dd>
      </div>
    </Card>
  );
}

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
