import { useState } from "react";
import { chosenBefore } from "#src/lib/lead-source.ts";

export interface HeardLabels {
  label: string;
  placeholder: string;
  optional: string;
  /** Choice id → its text (the locale files' `contact.form.heardOptions`, editable content). */
  options: Record<string, string>;
}

/**
 * The optional "How did you hear about us?" choice of the enquiry form and the booking dialog: a
 * plain select named `heard`, so it works before its island hydrates (a choice made then is kept)
 * and the no-JavaScript form posts it.
 */
export default function HeardSelect({ id, labels, className }: { id: string; labels: HeardLabels; className: string }) {
  const [initial] = useState(() => chosenBefore(id));
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-brand-950">
        {labels.label}
        <span className="font-normal text-muted"> ({labels.optional})</span>
      </label>
      <select id={id} name="heard" defaultValue={initial} className={className}>
        <option value="">{labels.placeholder}</option>
        {Object.entries(labels.options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The value of the form's `heard` select. */
export const heardIn = (form: HTMLFormElement | null | undefined): string =>
  (form?.elements.namedItem("heard") as HTMLSelectElement | null)?.value ?? "";
