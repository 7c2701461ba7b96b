import { useEffect, useRef, useState, type ReactNode } from "react";
import PrivacyNote, { type PrivacyNoteLabels } from "./PrivacyNote";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { enquirySchema, type EnquiryInput } from "#shared/schemas/enquiries.ts";
import { MESSAGES } from "#shared/schemas/fields.ts";
import { SERVICE_IDS, type ServiceNames } from "#shared/services.ts";
import type { EnquiryCreatedAnswer } from "#shared/api/enquiries.ts";
import { ApiError, errorTopic } from "#src/lib/api-client.ts";
import { formTokens, guardMessage, type GuardLabels } from "#src/lib/form-token.ts";
import Honeypot, { honeypotValue } from "./Honeypot";
import { showToast } from "#src/stores/toasts.ts";
import { useKeptSubmit } from "#src/lib/kept-submit.ts";
import { ROUTES } from "#shared/routes.ts";
import { leadSource } from "#src/lib/lead-source.ts";
import HeardSelect, { heardIn, type HeardLabels } from "./HeardSelect";

export interface ContactLabels {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  optional: string;
  service: string;
  servicePlaceholder: string;
  services: ServiceNames;
  message: string;
  messagePlaceholder: string;
  submit: string;
  submitting: string;
  privacy: PrivacyNoteLabels;
  /** English validation message (from the shared schema) → message in the page's language. */
  validation: Record<string, string>;
  /**
   * Shown instead of a message the form does not know (a server message or a schema rule without a
   * translation); null on English pages, which show such messages as they are.
   */
  unknownMessage: string | null;
  toast: {
    errorTitle: string;
    errorMessage: string;
    successTitle: string;
    successMessage: string;
    /** The inline note after a send, with `{{reference}}` (E-00042), which stays until the next send. */
    sent: string;
  };
  guard: GuardLabels;
  heard: HeardLabels;
}

export interface ContactFormProps {
  lang: string;
  labels: ContactLabels;
}

const EMPTY: EnquiryInput = { firstName: "", lastName: "", email: "", company: "", service: "", message: "" };

/**
 * What the visitor already typed or chose in the server-rendered form before this island hydrated
 * (it hydrates when the form scrolls into view, and a fast visitor starts typing first). These
 * become the form's starting values, so hydration never wipes them.
 */
function typedBeforeHydration(): EnquiryInput {
  if (typeof document === "undefined") return EMPTY;
  const typed = (field: keyof EnquiryInput) =>
    (document.getElementById(`cf-${field}`) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? "";
  return Object.fromEntries(
    Object.keys(EMPTY).map((field) => [field, typed(field as keyof EnquiryInput)]),
  ) as unknown as EnquiryInput;
}

const inputClass =
  "mt-1.5 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base text-ink shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700";

function Field({
  id,
  label,
  error,
  children,
  hint,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
  hint?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-brand-950">
        {label}
        {hint && <span className="font-normal text-muted"> ({hint})</span>}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The enquiry form (react-hook-form with the shared zod schema). Without JavaScript the same
 * markup posts to /api/contact as a plain form.
 */
export default function ContactForm({ lang, labels }: ContactFormProps) {
  const [initialValues] = useState(typedBeforeHydration);
  const [tokens] = useState(formTokens);
  useEffect(() => tokens.prefetch(), [tokens]);
  // Known messages in the page's language; an unknown one (English, from the server or the schema)
  // becomes the page's own fallback rather than English on a Dutch or Persian page.
  const translate = (message?: string) =>
    message ? (labels.validation[message] ?? labels.unknownMessage ?? message) : undefined;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EnquiryInput>({
    resolver: zodResolver(enquirySchema),
    defaultValues: initialValues,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });

  const formRef = useRef<HTMLFormElement>(null);
  useKeptSubmit(formRef);
  // The reference of the enquiry just sent: a toast fades, so the form also says it in place.
  const [sentReference, setSentReference] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!sentReference) return;
    // Centred: at the bottom of the view the success toast would cover it.
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    sentRef.current?.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
    sentRef.current?.focus({ preventScroll: true });
  }, [sentReference]);

  const onSubmit = handleSubmit(async (values, event) => {
    try {
      const form = event?.target as HTMLFormElement | undefined;
      const honeypot = honeypotValue(form);
      const source = leadSource(heardIn(form));
      setSentReference(null);
      const answer = await tokens.send<EnquiryCreatedAnswer>(
        ROUTES.contact,
        { ...values, language: lang, source },
        honeypot,
      );
      showToast({ title: labels.toast.successTitle, description: labels.toast.successMessage, variant: "success" });
      reset(EMPTY);
      // The "how did you hear" choice is a plain select outside react-hook-form: emptied too.
      const heard = form?.elements.namedItem("heard");
      if (heard instanceof HTMLSelectElement) heard.value = "";
      setSentReference(answer.reference);
    } catch (error) {
      // A message about email, phone or name shows that field's message; else the
      // error's own message; else the response's message; else the generic one. The form keeps its data.
      let description = labels.toast.errorMessage;
      if (error instanceof ApiError) {
        const fields = (error.data as { errors?: Record<string, string[]> } | null)?.errors ?? {};
        for (const [field, messages] of Object.entries(fields)) {
          if (field in EMPTY && messages[0]) setError(field as keyof EnquiryInput, { message: messages[0] });
        }
        const topic = errorTopic(error.message);
        const server = error.status >= 500 ? "" : error.message;
        const known = labels.validation[server] ?? (labels.unknownMessage === null ? server : "");
        description =
          guardMessage(error, labels.guard) ??
          ((topic && labels.validation[topicMessage(topic)]) || known || labels.toast.errorMessage);
      }
      showToast({ title: labels.toast.errorTitle, description, variant: "destructive" });
    }
  });

  const describedBy = (field: keyof EnquiryInput) => (errors[field] ? `cf-${field}-error` : undefined);

  return (
    <form
      ref={formRef}
      method="post"
      action={ROUTES.contact}
      noValidate
      data-keep-submit
      onSubmit={onSubmit}
      className="mt-6 grid gap-5 sm:grid-cols-2"
    >
      <input type="hidden" name="lang" value={lang} />
      <Honeypot id="cf-website" label={labels.guard.honeypot} />
      <Field id="cf-firstName" label={labels.firstName} error={translate(errors.firstName?.message)}>
        <input
          id="cf-firstName"
          autoComplete="given-name"
          className={inputClass}
          aria-invalid={!!errors.firstName}
          aria-describedby={describedBy("firstName")}
          {...register("firstName")}
        />
      </Field>
      <Field id="cf-lastName" label={labels.lastName} error={translate(errors.lastName?.message)}>
        <input
          id="cf-lastName"
          autoComplete="family-name"
          className={inputClass}
          aria-invalid={!!errors.lastName}
          aria-describedby={describedBy("lastName")}
          {...register("lastName")}
        />
      </Field>
      <Field id="cf-email" label={labels.email} error={translate(errors.email?.message)}>
        <input
          id="cf-email"
          type="email"
          dir="ltr"
          autoComplete="email"
          className={`${inputClass} rtl:text-right`}
          aria-invalid={!!errors.email}
          aria-describedby={describedBy("email")}
          {...register("email")}
        />
      </Field>
      <Field id="cf-company" label={labels.company} hint={labels.optional} error={translate(errors.company?.message)}>
        <input
          id="cf-company"
          autoComplete="organization"
          className={inputClass}
          aria-invalid={!!errors.company}
          aria-describedby={describedBy("company")}
          {...register("company")}
        />
      </Field>
      <div className="sm:col-span-2">
        <Field id="cf-service" label={labels.service} error={translate(errors.service?.message)}>
          <select
            id="cf-service"
            className={inputClass}
            aria-invalid={!!errors.service}
            aria-describedby={describedBy("service")}
            {...register("service")}
          >
            <option value="">{labels.servicePlaceholder}</option>
            {SERVICE_IDS.map((id) => (
              <option key={id} value={id}>
                {labels.services[id]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="sm:col-span-2">
        <Field id="cf-message" label={labels.message} error={translate(errors.message?.message)}>
          <textarea
            id="cf-message"
            rows={5}
            placeholder={labels.messagePlaceholder}
            className={`${inputClass} resize-y`}
            aria-invalid={!!errors.message}
            aria-describedby={describedBy("message")}
            {...register("message")}
          />
        </Field>
      </div>
      <div className="sm:col-span-2">
        <HeardSelect id="cf-heard" labels={labels.heard} className={inputClass} />
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <PrivacyNote labels={labels.privacy} />
        <button
          type="submit"
          disabled={isSubmitting}
          className="btn btn-primary shrink-0 disabled:cursor-wait disabled:opacity-70"
        >
          {isSubmitting ? labels.submitting : labels.submit}
        </button>
      </div>
      {sentReference && (
        <p
          ref={sentRef}
          role="status"
          tabIndex={-1}
          data-testid="enquiry-sent"
          className="rounded-xl bg-teal-50 px-4 py-3 text-sm font-medium text-teal-950 ring-1 ring-inset ring-teal-600/30 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:col-span-2"
        >
          {withReference(labels.toast.sent, sentReference)}
        </p>
      )}
    </form>
  );
}

/** Key of the translated message for a topic found in a server error. */
const topicMessage = (topic: NonNullable<ReturnType<typeof errorTopic>>): string => MESSAGES[topic];

/** The sent note with the reference kept left to right (and in its own digits) inside Persian text. */
function withReference(text: string, reference: string): ReactNode {
  const [before, after = ""] = text.split("{{reference}}");
  return (
    <>
      {before}
      <bdi dir="ltr" className="font-semibold">
        {reference}
      </bdi>
      {after}
    </>
  );
}
