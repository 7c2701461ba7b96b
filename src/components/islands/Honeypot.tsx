import { HONEYPOT_FIELD } from "#shared/form-guard.ts";

/**
 * The bot trap of a public form (src/shared/form-guard.ts): a field people never meet (visually
 * hidden, aria-hidden, out of the tab order, no autofill) and bots fill. Uncontrolled: the form reads
 * it when it is sent, and without JavaScript it is posted with the rest.
 */
export default function Honeypot({ id, label }: { id: string; label: string }) {
  return (
    <div className="sr-only" aria-hidden="true">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** What the honeypot inside `form` holds ("" for a person). */
export const honeypotValue = (form: HTMLFormElement | null | undefined): string =>
  (form?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null)?.value ?? "";
