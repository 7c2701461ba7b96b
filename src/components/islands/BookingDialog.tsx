import { useCallback, useEffect, useState, useSyncExternalStore, type SubmitEvent } from "react";
import PrivacyNote, { type PrivacyNoteLabels } from "./PrivacyNote";
import { useHydrated } from "#src/lib/use-hydrated.ts";
import { ApiError, errorTopic } from "#src/lib/api-client.ts";
import { formTokens, guardCode, guardMessage, type GuardLabels } from "#src/lib/form-token.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import Honeypot, { honeypotValue } from "./Honeypot";
import { formatDate, formatTime } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { showToast } from "#src/stores/toasts.ts";
import { useOfficeCalendar } from "#src/lib/use-office-calendar.ts";
import { Spinner } from "../ui/Spinner";
import SlotPicker, { inputClass, type SlotPickerLabels } from "./SlotPicker";
import { ROUTES } from "#shared/routes.ts";
import { StrokeIcon } from "../ui/StrokeIcon";
import { leadSource } from "#src/lib/lead-source.ts";
import HeardSelect, { heardIn, type HeardLabels } from "./HeardSelect";

export interface BookingLabels extends SlotPickerLabels {
  title: string;
  privacy: PrivacyNoteLabels;
  description: string;
  name: string;
  email: string;
  phone: string;
  loadingCalendar: string;
  confirm: string;
  processing: string;
  cancel: string;
  close: string;
  validation: { name: string; email: string; phone: string };
  toast: {
    errorTitle: string;
    errorMessage: string;
    slotTaken: string;
    /** The day reached its cap of meetings meanwhile. */
    dayFull: string;
    scheduleSuccess: string;
    /** Contains {{date}} and {{time}}. */
    scheduleWhen: string;
    slotsErrorTitle: string;
    slotsError: string;
    /** The email address has the most pending meetings allowed. */
    tooManyPending: string;
  };
  guard: GuardLabels;
  heard: HeardLabels;
}

export interface BookingDialogProps {
  lang: Language;
  labels: BookingLabels;
  /** Id of the static <dialog> this island fills (Contact.astro). */
  dialogId: string;
}

const DEFAULT_TIME = "09:00";
const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** What the visitor typed into a field before this island hydrated (the dialog opens without React). */
const typedBefore = (id: string) =>
  typeof document === "undefined" ? "" : ((document.getElementById(id) as HTMLInputElement | null)?.value ?? "");

/**
 * The meeting booking form inside the static modal <dialog> of the
 * contact section. The dialog opens without any JavaScript (an invoker button), shows this form's
 * server-rendered shell with the calendar loading, and keeps what the visitor types meanwhile;
 * when this island arrives it fills in the calendar, starting on the first day with a free slot.
 */
export default function BookingDialog({ lang, labels, dialogId }: BookingDialogProps) {
  const picker = useOfficeCalendar(labels.toast, DEFAULT_TIME);
  const { calendar, date, time, slots, loadSlots, start } = picker;
  const [processing, setProcessing] = useState(false);
  const [name, setName] = useState(() => typedBefore("bk-name"));
  const [email, setEmail] = useState(() => typedBefore("bk-email"));
  const [phone, setPhone] = useState(() => typedBefore("bk-phone"));
  const [errors, setErrors] = useState<{ name?: string; email?: string; phone?: string }>({});
  const [tokens] = useState(formTokens);
  useEffect(() => tokens.prefetch(), [tokens]);

  const dialog = useCallback(() => document.getElementById(dialogId) as HTMLDialogElement | null, [dialogId]);
  const hydrated = useHydrated();

  // The native <dialog> is the source of truth for open/closed, whoever opened it.
  const watchOpen = useCallback(
    (changed: () => void) => {
      const observer = new MutationObserver(changed);
      const element = dialog();
      if (element) observer.observe(element, { attributes: true, attributeFilter: ["open"] });
      return () => observer.disconnect();
    },
    [dialog],
  );
  const open = useSyncExternalStore(
    watchOpen,
    () => dialog()?.open ?? false,
    () => false,
  );

  // On the first opening: the office calendar, then the first day that still has a free slot.
  useEffect(() => {
    if (open && !calendar) void start();
  }, [open, calendar, start]);

  const ready = hydrated && !!calendar && !!date;
  const complete = Boolean(ready && name.trim() && email.trim() && phone.trim() && date && time && slots.length);

  const confirm = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const honeypot = honeypotValue(form);
    if (!complete) return;
    const found: typeof errors = {};
    if (name.trim().length < 2) found.name = labels.validation.name;
    if (!EMAIL_PATTERN.test(email.trim())) found.email = labels.validation.email;
    if (phone.replace(/\D/g, "").length < 6) found.phone = labels.validation.phone;
    setErrors(found);
    if (Object.keys(found).length) return;
    setProcessing(true);
    try {
      await tokens.send(
        ROUTES.meetings.schedule,
        {
          name: name.trim(),
          email: email.trim(),
          phone: phone.trim(),
          date,
          time,
          language: lang,
          source: leadSource(heardIn(form)),
        },
        honeypot,
      );
      showToast({
        title: labels.toast.scheduleSuccess,
        description: labels.toast.scheduleWhen
          .replace("{{date}}", formatDate(lang, date))
          .replace("{{time}}", formatTime(lang, time)),
        variant: "success",
      });
      setName("");
      setEmail("");
      setPhone("");
      dialog()?.close();
      void loadSlots(date);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : "";
      const data = error instanceof ApiError ? (error.data as { message?: string } | null) : null;
      const topic = errorTopic(message);
      let description = labels.toast.errorMessage;
      const guarded = guardMessage(error, labels.guard);
      if (guardCode(error) === GUARD_CODES.tooManyPending) description = labels.toast.tooManyPending;
      else if (guarded) description = guarded;
      else if (message === "timeSlotOccupied" || data?.message === "timeSlotOccupied")
        description = labels.toast.slotTaken;
      else if (message === "dailyLimitReached") description = labels.toast.dayFull;
      else if (topic === "email") description = labels.validation.email;
      else if (topic === "phone") description = labels.validation.phone;
      else if (topic) description = labels.validation.name;
      showToast({ title: labels.toast.errorTitle, description, variant: "destructive" });
      await loadSlots(date, true);
    } finally {
      setProcessing(false);
    }
  };

  const edit = (field: keyof typeof errors, setter: (v: string) => void) => (value: string) => {
    setter(value);
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const closeButton = { commandfor: dialogId, command: "close" } as const;

  return (
    <form onSubmit={confirm} noValidate className="relative p-6 sm:p-8" aria-busy={!ready}>
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="booking-title" className="text-2xl font-bold text-brand-950">
            {labels.title}
          </h2>
          <p id="booking-description" className="mt-1 text-muted">
            {labels.description}
          </p>
        </div>
        <button
          type="button"
          {...closeButton}
          aria-label={labels.close}
          className="-m-2 flex size-11 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-brand-50"
        >
          <StrokeIcon name="close" className="size-5" />
        </button>
      </div>

      <div className="mt-6 grid gap-6 md:grid-cols-[auto_1fr]">
        <SlotPicker
          lang={lang}
          labels={labels}
          picker={picker}
          idPrefix="bk"
          ready={ready}
          placeholder={
            <div
              className="flex h-[21.5rem] w-full max-w-[21rem] flex-col items-center justify-center gap-3 rounded-2xl bg-surface text-muted md:w-[21rem]"
              role="status"
            >
              <Spinner className="size-7 text-brand-600" />
              <span className="text-sm font-medium">{labels.loadingCalendar}</span>
            </div>
          }
        >
          {(
            [
              ["name", labels.name, name, setName, "name", "text"],
              ["email", labels.email, email, setEmail, "email", "email"],
              ["phone", labels.phone, phone, setPhone, "tel", "tel"],
            ] as const
          ).map(([field, label, value, setter, autoComplete, type]) => (
            <div key={field}>
              <label htmlFor={`bk-${field}`} className="block text-sm font-semibold text-brand-950">
                {label}
              </label>
              <input
                id={`bk-${field}`}
                name={field === "name" ? "firstName" : field}
                type={type}
                dir={field === "name" ? undefined : "ltr"}
                autoComplete={autoComplete}
                value={value}
                onChange={(e) => edit(field, setter)(e.target.value)}
                aria-invalid={!!errors[field]}
                aria-describedby={errors[field] ? `bk-${field}-error` : undefined}
                className={`${inputClass} ${field === "name" ? "" : "rtl:text-right"}`}
              />
              {errors[field] && (
                <p id={`bk-${field}-error`} className="mt-1.5 text-sm font-medium text-red-700">
                  {errors[field]}
                </p>
              )}
            </div>
          ))}
        </SlotPicker>
      </div>

      <div className="mt-4">
        <HeardSelect id="bk-heard" labels={labels.heard} className={inputClass} />
      </div>
      <PrivacyNote labels={labels.privacy} className="mt-6" />
      <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" {...closeButton} className="btn btn-secondary">
          {labels.cancel}
        </button>
        <button
          type="submit"
          disabled={processing || !complete}
          className="btn btn-primary disabled:cursor-not-allowed disabled:opacity-60"
        >
          {processing && <Spinner className="size-4" />}
          {processing ? labels.processing : labels.confirm}
        </button>
      </div>
      {/* Last, so that the dialog's first focusable element is never the trap. */}
      <Honeypot id="bk-website" label={labels.guard.honeypot} />
    </form>
  );
}
