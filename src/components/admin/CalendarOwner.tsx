/**
 * The calendar owner's address in the connect form, and the note on a connected calendar that has
 * one: an invitation this address declined does not make the office busy (issue 29). Their words
 * are the admin's texts (`admin.calendars`), in the admin's language.
 */
import { useId } from "react";
import { adminCopy } from "./copy";

/** The optional owner's-address field of the connect form. */
export function OwnerEmailField({
  value,
  onChange,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  className: string;
}) {
  const { lang, dir, copy } = adminCopy();
  const hintId = useId();
  return (
    <label lang={lang} dir={dir} className="grid gap-1.5 text-sm font-semibold text-ink sm:col-span-2">
      <span>
        {copy.calendars.ownerEmail} <span className="font-normal text-muted">{copy.calendars.optional}</span>
      </span>
      <input
        type="email"
        dir="ltr"
        value={value}
        maxLength={254}
        onChange={(e) => onChange(e.target.value)}
        className={className}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hintId}
      />
      <span id={hintId} className="font-normal text-muted">
        {copy.calendars.ownerHint}
      </span>
    </label>
  );
}

/** A connected calendar's owner, when one was given. */
export function OwnerNote({ email }: { email: string }) {
  const { lang, dir, copy } = adminCopy();
  return (
    <p lang={lang} dir={dir} className="mt-1 text-sm text-muted [overflow-wrap:anywhere]">
      {copy.calendars.owner}: <span dir="ltr">{email}</span>. {copy.calendars.declinedFree}
    </p>
  );
}
