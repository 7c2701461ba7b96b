/** What the enquiry and meeting cards share: the card's frame, a field, a date stamp, the status button. */
import type { ReactNode } from "react";
import type { EmailStatus } from "#shared/api/common.ts";
import { useCopy } from "../copy";
import type { CardControls } from "../StatusList";
import { BusyButton, Icon, iconPaths } from "../ui";

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

export function Card({
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

export function Field({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "col-span-full" : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{label}</dt>
      <dd className="mt-1 text-ink">{children}</dd>
    </div>
  );
}

export function Stamp({ label, iso }: { label: string; iso: string }) {
  const { dateTime } = useCopy();
  return (
    <p className="text-sm text-muted">
      {label} <time dateTime={iso}>{dateTime(iso)}</time>
    </p>
  );
}

/** The status button; while its change is sending, a disabled placeholder takes its place. */
export function ToggleButton({
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
