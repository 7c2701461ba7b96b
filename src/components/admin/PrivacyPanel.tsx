import { useEffect, useId, useState, type SubmitEvent } from "react";
import type { ErasureAnswer } from "#shared/api/privacy.ts";
import type { NewsletterCountsAnswer } from "#shared/api/newsletter.ts";
import { personalDataRequestSchema } from "#shared/schemas/privacy.ts";
import { showToast } from "#src/stores/toasts.ts";
import { erasePersonalData, exportPersonalData, newsletterCounts } from "./api";
import { ROUTES } from "#shared/routes.ts";
import { ConfirmAction } from "./ConfirmAction";
import { Icon, iconPaths, Spinner } from "./ui";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const reason = (failure: unknown) =>
  failure instanceof Error && failure.message ? failure.message : "Please try again.";

/** What an erasure changed, in a sentence. */
function erasedSummary(email: string, { erased }: ErasureAnswer): string {
  const parts = [
    plural(erased.enquiries, "enquiry", "enquiries") + " anonymised",
    plural(erased.meetings, "meeting") + " anonymised",
    plural(erased.newsletter, "newsletter subscription") + " deleted",
    plural(erased.emails, "email") + " deleted",
    plural(erased.loginAttempts, "login attempt") + " deleted",
  ];
  return `Erased ${email}: ${parts.join(", ")}.`;
}

/** Starts a download of `data` as a JSON file, in the browser, without a round trip. */
function downloadJson(data: unknown, filename: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The dashboard's privacy tools (GDPR): export everything held about one email address as JSON, or
 * erase it (with a confirm step); and the newsletter's confirmed count with the subscribers' CSV.
 */
export function PrivacyPanel() {
  const headingId = useId();
  const fieldId = useId();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [counts, setCounts] = useState<NewsletterCountsAnswer | null>(null);

  useEffect(() => {
    newsletterCounts().then(setCounts, () => setCounts(null));
  }, []);

  /** The typed address, checked; null (with the message under the field) when it is not one. */
  const address = (): string | null => {
    const parsed = personalDataRequestSchema.safeParse({ email: email.trim() });
    if (parsed.success) return parsed.data.email;
    setError("Please enter a valid email address");
    document.getElementById(fieldId)?.focus();
    return null;
  };

  const onExport = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = address();
    if (!value) return;
    setExporting(true);
    setResult(null);
    try {
      const data = await exportPersonalData(value);
      downloadJson(data, `personal-data-${data.exportedAt.slice(0, 10)}.json`);
      const found = data.enquiries.length + data.meetings.length + data.newsletter.length + data.emails.length;
      setResult(
        `Exported ${value}: ${plural(found, "record")} and ${plural(data.loginAttempts.length, "login attempt")}.`,
      );
    } catch (failure) {
      showToast({ title: "Export failed", description: reason(failure), variant: "destructive" });
    } finally {
      setExporting(false);
    }
  };

  const onErase = async (): Promise<boolean> => {
    const value = address();
    if (!value) return false;
    try {
      const answer = await erasePersonalData(value);
      setResult(erasedSummary(value, answer));
      setEmail("");
      showToast({ title: "Address erased", description: "No trace of it is left.", variant: "success" });
      newsletterCounts().then(setCounts, () => {});
      return true;
    } catch (failure) {
      showToast({ title: "Erasure failed", description: reason(failure), variant: "destructive" });
      return false;
    }
  };

  return (
    <section id="privacy" aria-labelledby={headingId} className="card mt-10 p-5 sm:p-6">
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-brand-950">
        <Icon path={iconPaths.shield} className="size-5 text-brand-700" />
        Privacy
      </h2>
      <p className="mt-1.5 max-w-2xl text-sm text-muted">
        Export everything held about one email address (enquiries, meetings, newsletter, emails, login attempts) as
        JSON, or erase it: enquiries and meetings stay as anonymised rows, everything else is deleted.
      </p>
      <form onSubmit={onExport} noValidate className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-start">
        <div className="min-w-0 flex-1">
          <label htmlFor={fieldId} className="text-sm font-semibold text-ink">
            Email address
          </label>
          <input
            id={fieldId}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(null);
            }}
            aria-invalid={!!error}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            className="mt-1.5 w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
          />
          {error && (
            <p id={`${fieldId}-error`} className="mt-1.5 text-sm font-medium text-red-700">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row lg:mt-7">
          <button
            type="submit"
            disabled={exporting}
            className="btn btn-primary whitespace-nowrap disabled:cursor-wait disabled:opacity-70"
          >
            {exporting ? <Spinner className="size-4" /> : <Icon path={iconPaths.download} />}
            {exporting ? "Exporting…" : "Export JSON"}
          </button>
          <ConfirmAction
            label="Erase…"
            question={`Erase every trace of ${email.trim() || "this address"}? This cannot be undone.`}
            confirmLabel="Erase for good"
            busyLabel="Erasing…"
            icon={iconPaths.trash}
            onConfirm={onErase}
          />
        </div>
      </form>
      <p role="status" className="mt-3 min-h-5 text-sm font-medium text-teal-800">
        {result}
      </p>

      <div className="mt-6 flex flex-col gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink">
          <span className="font-semibold">Newsletter:</span>{" "}
          {counts
            ? `${plural(counts.confirmed, "confirmed subscriber")} · ${counts.pending} waiting for confirmation`
            : "…"}
        </p>
        <a href={ROUTES.admin.subscribersCsv} download className="btn btn-secondary">
          <Icon path={iconPaths.download} />
          Subscribers (CSV)
        </a>
      </div>
    </section>
  );
}
