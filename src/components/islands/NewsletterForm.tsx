import { useState, type FormEvent } from "react";
import { newsletterSchema } from "../../shared/schemas";
import { apiRequest } from "../../lib/api-client";
import { showToast } from "../../stores/toasts";

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
}

/** Footer newsletter signup, in the visitor's language. Subscribing twice is simply a success. */
export default function NewsletterForm({ lang, labels }: { lang: string; labels: NewsletterLabels }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newsletterSchema.safeParse({ email, language: lang });
    if (!parsed.success) {
      setError(labels.invalidEmail);
      return;
    }
    setSending(true);
    try {
      await apiRequest("POST", "/api/newsletter", { body: parsed.data });
      showToast({ title: labels.successTitle, description: labels.successText, variant: "success" });
      setEmail("");
    } catch {
      showToast({ title: labels.errorTitle, description: labels.errorText, variant: "destructive" });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="newsletter-title">
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
          type="email"
          dir="ltr"
          autoComplete="email"
          placeholder={labels.placeholder}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (error) setError(null);
          }}
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
    </form>
  );
}
