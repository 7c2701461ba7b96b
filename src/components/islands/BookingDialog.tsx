import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type SubmitEvent } from "react";
import PrivacyNote, { type PrivacyNoteLabels } from "./PrivacyNote";
import { useHydrated } from "#src/lib/use-hydrated.ts";
import { ApiError, apiRequest, errorTopic } from "#src/lib/api-client.ts";
import { formTokens, guardCode, guardMessage, type GuardLabels } from "#src/lib/form-token.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import Honeypot, { honeypotValue } from "./Honeypot";
import type { CalendarAnswer, OfficeCalendar, SlotsAnswer } from "#shared/api.ts";
import { calendarDayOpen } from "#shared/booking.ts";
import { addDays, zonedInstant } from "#shared/dates.ts";
import { formatDate, formatTime } from "#shared/format.ts";
import { LANGUAGE_INFO, type Language } from "#shared/languages.ts";
import { showToast } from "#src/stores/toasts.ts";
import BookingCalendar, { type CalendarLabels } from "./BookingCalendar";

export interface BookingLabels extends CalendarLabels {
  title: string;
  privacy: PrivacyNoteLabels;
  description: string;
  name: string;
  email: string;
  phone: string;
  date: string;
  time: string;
  officeTime: string;
  /** Contains {{time}}. */
  localTime: string;
  /** Contains {{date}}. */
  selectedDate: string;
  loadingCalendar: string;
  noSlots: string;
  noSlotsOption: string;
  loadingSlots: string;
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
}

export interface BookingDialogProps {
  lang: Language;
  labels: BookingLabels;
  /** Id of the static <dialog> this island fills (Contact.astro). */
  dialogId: string;
}

const DEFAULT_TIME = "09:00";
const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
/** How many open days ahead the dialog looks for the first free slot before it shows today's "no slots". */
const FIRST_FREE_DAY_SEARCH = 10;

const inputClass =
  "mt-1.5 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700 disabled:bg-slate-50";

/** What the visitor typed into a field before this island hydrated (the dialog opens without React). */
const typedBefore = (id: string) =>
  typeof document === "undefined" ? "" : ((document.getElementById(id) as HTMLInputElement | null)?.value ?? "");

/** The visitor's own wall-clock time for an office time, e.g. 09:00 in Amsterdam → "Mon 11:30" in Tehran. */
function localEquivalent(lang: Language, date: string, time: string, officeZone: string): string | null {
  const visitorZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!time || !date || visitorZone === officeZone) return null;
  return new Intl.DateTimeFormat(LANGUAGE_INFO[lang].intl, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    weekday: "short",
  }).format(zonedInstant(date, time, officeZone));
}

/**
 * The meeting booking form inside the static modal <dialog> of the
 * contact section. The dialog opens without any JavaScript (an invoker button), shows this form's
 * server-rendered shell with the calendar loading, and keeps what the visitor types meanwhile;
 * when this island arrives it fills in the calendar, starting on the first day with a free slot.
 */
export default function BookingDialog({ lang, labels, dialogId }: BookingDialogProps) {
  const [calendar, setCalendar] = useState<OfficeCalendar | null>(null);
  const [date, setDate] = useState("");
  const [time, setTime] = useState(DEFAULT_TIME);
  const [slots, setSlots] = useState<string[]>([]);
  const [loadingSlots, setLoadingSlots] = useState(true);
  const [processing, setProcessing] = useState(false);
  const [name, setName] = useState(() => typedBefore("bk-name"));
  const [email, setEmail] = useState(() => typedBefore("bk-email"));
  const [phone, setPhone] = useState(() => typedBefore("bk-phone"));
  const [errors, setErrors] = useState<{ name?: string; email?: string; phone?: string }>({});
  const searching = useRef(false);
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

  const isOpenDay = useCallback((day: string) => !!calendar && calendarDayOpen(day, calendar), [calendar]);

  const fetchSlots = useCallback(async (day: string) => {
    const result = await apiRequest<SlotsAnswer>(
      "GET",
      `/api/meetings/available-slots?date=${encodeURIComponent(day)}`,
    );
    if (!result?.success || !Array.isArray(result.data)) throw new Error("unsuccessful");
    return result.data;
  }, []);

  const slotsFailed = useCallback(() => {
    setSlots([]);
    showToast({ title: labels.toast.slotsErrorTitle, description: labels.toast.slotsError, variant: "destructive" });
  }, [labels.toast.slotsError, labels.toast.slotsErrorTitle]);

  /** Shows a day's slots; keeps the chosen time when it is still offered, else takes the first. */
  const showSlots = useCallback((list: string[], preferFirst = false) => {
    setSlots(list);
    setTime((current) => (list.length && (preferFirst || !list.includes(current)) ? list[0] : current));
  }, []);

  const loadSlots = useCallback(
    async (day: string, preferFirst = false) => {
      setLoadingSlots(true);
      try {
        showSlots(await fetchSlots(day), preferFirst);
      } catch {
        slotsFailed();
      } finally {
        setLoadingSlots(false);
      }
    },
    [fetchSlots, showSlots, slotsFailed],
  );

  // On the first opening: the office calendar, then the first day that still has a free slot
  // (today when it has one), so the dialog never opens on "no slots" when a later day has some.
  useEffect(() => {
    if (!open || calendar || searching.current) return;
    searching.current = true;
    (async () => {
      let rules: OfficeCalendar;
      try {
        rules = (await apiRequest<CalendarAnswer>("GET", "/api/meetings/calendar")).data;
      } catch {
        searching.current = false;
        setLoadingSlots(false);
        slotsFailed();
        return;
      }
      setCalendar(rules);
      const openDay = (day: string) => calendarDayOpen(day, rules);
      let first = "";
      try {
        for (let day = rules.today, tried = 0; day <= rules.lastDate && tried < FIRST_FREE_DAY_SEARCH;) {
          if (openDay(day)) {
            first ||= day;
            tried++;
            const free = await fetchSlots(day);
            if (free.length) {
              setDate(day);
              showSlots(free);
              return;
            }
          }
          day = addDays(day, 1);
        }
        setDate(first || rules.today);
        showSlots([]);
      } catch {
        setDate(first || rules.today);
        slotsFailed();
      } finally {
        setLoadingSlots(false);
      }
    })();
  }, [open, calendar, fetchSlots, showSlots, slotsFailed]);

  const choose = (day: string) => {
    if (day === date) return;
    setDate(day);
    void loadSlots(day);
  };

  const localTime = useMemo(
    () => (calendar && slots.length ? localEquivalent(lang, date, time, calendar.timeZone) : null),
    [calendar, slots.length, lang, date, time],
  );

  const ready = hydrated && !!calendar && !!date;
  const complete = Boolean(ready && name.trim() && email.trim() && phone.trim() && date && time && slots.length);

  const confirm = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const honeypot = honeypotValue(event.currentTarget);
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
        "/api/meetings/schedule",
        { name: name.trim(), email: email.trim(), phone: phone.trim(), date, time, language: lang },
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
  const slotsShown = ready && !loadingSlots;

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
          <svg
            className="size-5"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            aria-hidden="true"
          >
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
        </button>
      </div>

      <div className="mt-6 grid gap-6 md:grid-cols-[auto_1fr]">
        <fieldset className="min-w-0">
          <legend className="text-sm font-semibold text-brand-950">{labels.date}</legend>
          <div className="mt-1.5 min-h-[21.5rem]">
            {ready ? (
              <BookingCalendar
                lang={lang}
                selected={date}
                onSelect={choose}
                isOpen={isOpenDay}
                min={calendar.today}
                max={calendar.lastDate}
                labels={labels}
              />
            ) : (
              <div
                className="flex h-[21.5rem] w-full max-w-[21rem] flex-col items-center justify-center gap-3 rounded-2xl bg-surface text-muted md:w-[21rem]"
                role="status"
              >
                <svg
                  className="size-7 animate-spin text-brand-600 motion-reduce:animate-none"
                  viewBox="0 0 24 24"
                  fill="none"
                  aria-hidden="true"
                >
                  <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
                  <path d="M21 12a9 9 0 00-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
                </svg>
                <span className="text-sm font-medium">{labels.loadingCalendar}</span>
              </div>
            )}
          </div>
          {ready && (
            <p className="mt-2 text-sm font-medium text-brand-900" aria-live="polite">
              {labels.selectedDate.replace("{{date}}", formatDate(lang, date))}
            </p>
          )}
        </fieldset>

        <div className="grid content-start gap-4">
          <div>
            <label htmlFor="bk-time" className="block text-sm font-semibold text-brand-950">
              {labels.time}
            </label>
            <select
              id="bk-time"
              value={slotsShown && slots.length ? time : ""}
              onChange={(e) => setTime(e.target.value)}
              disabled={!slotsShown || !slots.length}
              aria-describedby="bk-time-help"
              className={inputClass}
            >
              {slotsShown && slots.length ? (
                slots.map((slot) => (
                  <option key={slot} value={slot}>
                    {formatTime(lang, slot)}
                  </option>
                ))
              ) : (
                <option value="" disabled>
                  {slotsShown ? labels.noSlotsOption : labels.loadingSlots}
                </option>
              )}
            </select>
            <p id="bk-time-help" className="mt-1.5 text-sm text-muted">
              {labels.officeTime}
              {localTime && (
                <span className="block font-medium text-brand-800">
                  {labels.localTime.replace("{{time}}", localTime)}
                </span>
              )}
            </p>
            {slotsShown && !slots.length && <p className="mt-2 text-sm font-medium text-red-700">{labels.noSlots}</p>}
          </div>
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
        </div>
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
          {processing && (
            <svg className="size-4 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
              <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
              <path d="M21 12a9 9 0 00-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
            </svg>
          )}
          {processing ? labels.processing : labels.confirm}
        </button>
      </div>
      {/* Last, so that the dialog's first focusable element is never the trap. */}
      <Honeypot id="bk-website" label={labels.guard.honeypot} />
    </form>
  );
}
