import { useRef, useState, type SubmitEvent } from "react";
import type { ErasureAnswer } from "#shared/api/privacy.ts";
import { personalDataRequestSchema } from "#shared/schemas/privacy.ts";
import { showToast } from "#src/stores/toasts.ts";
import { erasePersonalData, exportPersonalData, newsletterCounts } from "./api";
import { ROUTES } from "#shared/routes.ts";
import { useCopy, type AdminText } from "./copy";
import { BusyButton, ConfirmAction, Field, Icon, iconPaths, problem, Section, useResource } from "./ui";

/** What an erasure changed, in a sentence. */
function erasedSummary({ copy, f, p }: AdminText, email: string, { erased }: ErasureAnswer): string {
  const c = copy.privacy.erasedParts;
  const parts = (["enquiries", "meetings", "newsletter", "emails", "loginAttempts"] as const).map((what) =>
    p(c[what], erased[what]),
  );
  return f(copy.privacy.erased, { email, parts: parts.join(", ") });
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
 * The privacy tools (/admin/privacy) (GDPR): export everything held about one email address as JSON, or
 * erase it (with a confirm step); and the newsletter's confirmed count with the subscribers' CSV.
 */
export function PrivacyPanel() {
  const texts = useCopy();
  const { copy, f, p } = texts;
  const c = copy.privacy;
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const counts = useResource(newsletterCounts);
  const input = useRef<HTMLInputElement>(null);

  /** The typed address, checked; null (with the message under the field) when it is not one. */
  const address = (): string | null => {
    const parsed = personalDataRequestSchema.safeParse({ email: email.trim() });
    if (parsed.success) return parsed.data.email;
    setError(c.invalidEmail);
    input.current?.focus();
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
      const attempts = p(c.loginAttempts, data.loginAttempts.length);
      setResult(f(c.exported, { email: value, records: p(c.records, found), attempts }));
    } catch (failure) {
      showToast({ title: c.exportFailed, description: problem(failure, copy.common.tryAgain), variant: "destructive" });
    } finally {
      setExporting(false);
    }
  };

  const onErase = async (): Promise<boolean> => {
    const value = address();
    if (!value) return false;
    try {
      const answer = await erasePersonalData(value);
      setResult(erasedSummary(texts, value, answer));
      setEmail("");
      showToast({ title: c.erasedTitle, description: c.erasedText, variant: "success" });
      void counts.reload();
      return true;
    } catch (failure) {
      showToast({ title: c.eraseFailed, description: problem(failure, copy.common.tryAgain), variant: "destructive" });
      return false;
    }
  };

  return (
    <Section id="privacy" title={c.title} intro={c.intro} icon={iconPaths.shield} className="mt-6">
      <form onSubmit={onExport} noValidate className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-start">
        <Field label={c.email} error={error} className="flex-1">
          {(props) => (
            <input
              {...props}
              ref={input}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setError(null);
              }}
              className="w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
            />
          )}
        </Field>
        <div className="flex flex-col gap-2 sm:flex-row lg:mt-7">
          <BusyButton
            type="submit"
            primary
            busy={exporting}
            label={c.export}
            busyLabel={c.exporting}
            icon={iconPaths.download}
            className="whitespace-nowrap"
          />
          <ConfirmAction
            label={c.erase}
            question={f(c.eraseQuestion, { email: email.trim() || c.thisAddress })}
            confirmLabel={c.eraseForGood}
            busyLabel={c.erasing}
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
          <span className="font-semibold">{c.newsletter}</span>{" "}
          {counts.data ? p(c.subscribers, counts.data.confirmed, { pending: counts.data.pending }) : "…"}
        </p>
        <a href={ROUTES.admin.subscribersCsv} download className="btn btn-secondary">
          <Icon path={iconPaths.download} />
          {c.subscribersCsv}
        </a>
      </div>
    </Section>
  );
}
