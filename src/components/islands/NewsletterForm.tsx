import { useEffect, useRef, useState, type SubmitEvent } from "react";
import PrivacyNote, { type PrivacyNoteLabels } from "./PrivacyNote";
import { newsletterSchema } from "#shared/schemas/newsletter.ts";
import { formTokens, guardMessage, type GuardLabels } from "#src/lib/form-token.ts";
import Honeypot, { honeypotValue } from "./Honeypot";
import { showToast } from "#src/stores/toasts.ts";
import { useKeptSubmit } from "#src/lib/kept-submit.ts";
import { ROUTES } from "#shared/routes.ts";

export interface NewsletterLabels {
  title: string;
  description: string;
  emailLabel: string;
  placeholder: string;
  submit: string;
  submitting: string;
  invalidEmail: string;
  successTitle: string;
  successText: string;
  errorTitle: string;
  errorText: string;
  privacy: PrivacyNoteLabels;
  guard: GuardLabels;
}

/**
 * Footer newsletter signup, in the visitor's language (double opt-in: the answer is always "check your
 * inbox"; `page` is recorded with the consent).
 * The field is left to the browser (uncontrolled): an address typed before this island hydrated
 * stays where it is, and without JavaScript the same form posts to /api/newsletter, which answers
 * with a redirect to a result page.
 */
export default function NewsletterForm({
  lang,
  page,
  labels,
}: {
  lang: string;
  page: string;
  labels: NewsletterLabels;
}) {
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [tokens] = useState(formTokens);

  // Until now the browser checked the address itself (type=email, required); from here on the
  // island does, with the site's own message under the field.
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
    tokens.prefetch();
  }, [tokens]);
  useKeptSubmit(formRef);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const field = form.elements.namedItem("email") as HTMLInputElement;
    const parsed = newsletterSchema.safeParse({ email: field.value, language: lang, page });
    if (!parsed.success) {
      setError(labels.invalidEmail);
      field.focus();
      return;
    }
    setSending(true);
    try {
      await tokens.send(ROUTES.newsletter, parsed.data, honeypotValue(form));
      showToast({ title: labels.successTitle, description: labels.successText, variant: "success" });
      form.reset();
    } catch (error) {
      const description = guardMessage(error, labels.guard) ?? labels.errorText;
      showToast({ title: labels.errorTitle, description, variant: "destructive" });
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      ref={formRef}
      id="newsletter"
      method="post"
      action={ROUTES.newsletter}
      data-keep-submit
      onSubmit={submit}
      aria-labelledby="newsletter-title"
    >
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="page" value={page} />
      <Honeypot id="newsletter-website" label={labels.guard.honeypot} />
      <h2 id="newsletter-title" className="text-sm font-semibold text-white">
        {labels.title}
      </h2>
      <p className="mt-2 text-sm text-slate-300">{labels.description}</p>
      <label htmlFor="newsletter-email" className="sr-only">
        {labels.emailLabel}
      </label>
      <div className="mt-3 flex gap-2">
        <input
          id="newsletter-email"
          name="email"
          type="email"
          dir="ltr"
          required
          autoComplete="email"
          placeholder={labels.placeholder}
          onChange={() => error && setError(null)}
          aria-invalid={!!error}
          aria-describedby={error ? "newsletter-error" : undefined}
          className="min-w-0 flex-1 rounded-xl border border-white/20 bg-white/10 px-3.5 py-2.5 text-sm text-white placeholder:text-slate-300 focus:border-teal-100 focus:outline-none rtl:text-right"
        />
        <button type="submit" disabled={sending} className="btn btn-light shrink-0 disabled:opacity-70">
          {sending ? labels.submitting : labels.submit}
        </button>
      </div>
      {error && (
        <p id="newsletter-error" className="mt-2 text-sm font-medium text-red-300">
          {error}
        </p>
      )}
      <PrivacyNote labels={labels.privacy} tone="dark" className="mt-3" />
    </form>
  );
}
