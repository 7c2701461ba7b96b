import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useStore } from "@nanostores/react";
import DatePicker, { registerLocale } from "react-datepicker";
import { enUS } from "date-fns/locale";
import { fromZonedTime } from "date-fns-tz";
import "react-datepicker/dist/react-datepicker.css";
import { ApiError, apiRequest, errorTopic } from "../../lib/api-client";
import type { CalendarAnswer, OfficeCalendar, SlotsAnswer } from "../../shared/api";
import { DATE_FNS_LOCALES } from "../../shared/date-fns-locales";
import { isoWeekday } from "../../shared/booking";
import { MEETING_MINUTES, OFFICE_TIME_ZONE } from "../../shared/office";
import { $bookingOpen, closeBooking } from "../../stores/booking";
import { showToast } from "../../stores/toasts";

// English day labels without ordinals ("Monday, November 23, 2026"): react-datepicker names each
// day "Choose <full date>", and "23rd" would not contain the visible "23" (WCAG 2.5.3). The name is
// not "en", which react-datepicker formats with date-fns defaults whatever is registered.
const EN = "en-GB-days";
registerLocale(EN, {
  ...enUS,
  formatLong: {
    ...enUS.formatLong,
    date: (o?: { width?: string }) => (o?.width === "full" ? "EEEE, MMMM d, y" : enUS.formatLong.date(o as never)),
  },
});
for (const [lang, locale] of Object.entries(DATE_FNS_LOCALES)) registerLocale(lang, locale);

export interface BookingLabels {
  title: string;
  description: string;
  name: string;
  email: string;
  phone: string;
  date: string;
  time: string;
  officeTime: string;
  /** Contains {{time}}. */
  localTime: string;
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
    scheduleSuccess: string;
    slotsErrorTitle: string;
    slotsError: string;
  };
}

const DEFAULT_TIME = "09:00";
const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** yyyy-MM-dd of a local Date (the date picker's days are local midnights). */
const ymd = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const fromYmd = (s: string) => {
  const [y, m, d] = s.split("-").map(Number);
  return new Date(y, m - 1, d);
};

const inputClass =
  "mt-1.5 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700";

/**
 * The meeting booking dialog (spec sections 2, 4, 5, 8): a native modal <dialog> (focus stays
 * inside, Escape closes, focus returns to the schedule button), an inline date picker limited by
 * the office calendar, and the time slots the API still offers for the chosen day.
 */
export default function BookingDialog({
  lang,
  labels,
  returnFocus,
}: {
  lang: string;
  labels: BookingLabels;
  returnFocus: () => void;
}) {
  const open = useStore($bookingOpen);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [calendar, setCalendar] = useState<OfficeCalendar | null>(null);
  const [date, setDate] = useState<string>(() => ymd(new Date()));
  const [time, setTime] = useState(DEFAULT_TIME);
  const [slots, setSlots] = useState<string[]>([]);
  const [loadingSlots, setLoadingSlots] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [phone, setPhone] = useState("");
  const [errors, setErrors] = useState<{ name?: string; email?: string; phone?: string }>({});

  // Open and close the native dialog with the store.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // The office calendar, once: today in office time, last bookable day, weekdays, closed dates.
  useEffect(() => {
    if (!open || calendar) return;
    apiRequest<CalendarAnswer>("GET", "/api/meetings/calendar")
      .then(({ data }) => {
        setCalendar(data);
        setDate((current) => (current < data.today ? data.today : current));
      })
      .catch(() => setCalendar(null));
  }, [open, calendar]);

  /** Fetches the slots of a day; keeps the chosen time when still offered, else takes the first. */
  const loadSlots = useCallback(
    async (day: string, preferFirst = false) => {
      setLoadingSlots(true);
      try {
        const result = await apiRequest<SlotsAnswer>(
          "GET",
          `/api/meetings/available-slots?date=${encodeURIComponent(day)}`,
        );
        if (!result?.success || !Array.isArray(result.data)) throw new Error("unsuccessful");
        setSlots(result.data);
        setTime((current) =>
          result.data.length && (preferFirst || !result.data.includes(current)) ? result.data[0] : current,
        );
      } catch {
        setSlots([]);
        showToast({
          title: labels.toast.slotsErrorTitle,
          description: labels.toast.slotsError,
          variant: "destructive",
        });
      } finally {
        setLoadingSlots(false);
      }
    },
    [labels.toast.slotsError, labels.toast.slotsErrorTitle],
  );

  useEffect(() => {
    if (open) void loadSlots(date);
  }, [open, date, loadSlots]);

  const close = () => {
    closeBooking();
    returnFocus();
  };

  const officeZone = calendar?.timeZone ?? OFFICE_TIME_ZONE;
  const visitorZone = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);
  const localEquivalent = useMemo(() => {
    if (!time || visitorZone === officeZone) return null;
    const instant = fromZonedTime(`${date}T${time}:00`, officeZone);
    const local = new Intl.DateTimeFormat(lang === "fa" ? "fa-IR" : lang, {
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
    }).format(instant);
    return labels.localTime.replace("{{time}}", local);
  }, [date, time, officeZone, visitorZone, lang, labels.localTime]);

  const complete = Boolean(name.trim() && email.trim() && phone.trim() && date && time && slots.length);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (name.trim().length < 2) found.name = labels.validation.name;
    if (!EMAIL_PATTERN.test(email.trim())) found.email = labels.validation.email;
    if (phone.replace(/\D/g, "").length < 6) found.phone = labels.validation.phone;
    setErrors(found);
    if (Object.keys(found).length) return;
    setProcessing(true);
    try {
      await apiRequest("POST", "/api/meetings/schedule", {
        body: { name: name.trim(), email: email.trim(), phone: phone.trim(), date, time, language: lang },
      });
      showToast({ title: labels.toast.scheduleSuccess, variant: "success" });
      setName("");
      setEmail("");
      setPhone("");
      close();
      void loadSlots(date);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : "";
      const data = error instanceof ApiError ? (error.data as { message?: string } | null) : null;
      const topic = errorTopic(message);
      let description = labels.toast.errorMessage;
      if (message === "timeSlotOccupied" || data?.message === "timeSlotOccupied") description = labels.toast.slotTaken;
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

  const isOpenDay = (d: Date) => {
    if (!calendar) return true;
    const day = ymd(d);
    return calendar.weekdays.includes(isoWeekday(day)) && !calendar.closedDates.includes(day);
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="booking-title"
      aria-describedby="booking-description"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      className="booking-dialog m-auto w-[min(100%-1.5rem,44rem)] max-h-[calc(100dvh-1.5rem)] overflow-y-auto rounded-3xl bg-white p-0 text-ink shadow-lift backdrop:bg-brand-950/60"
    >
      <form onSubmit={confirm} noValidate className="p-6 sm:p-8">
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
            onClick={close}
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
          <fieldset>
            <legend className="text-sm font-semibold text-brand-950">{labels.date}</legend>
            <div className="mt-1.5">
              <DatePicker
                inline
                locale={lang === "en" ? EN : lang}
                selected={fromYmd(date)}
                onChange={(d: Date | null) => d && setDate(ymd(d))}
                minDate={fromYmd(calendar?.today ?? ymd(new Date()))}
                maxDate={calendar ? fromYmd(calendar.lastDate) : undefined}
                filterDate={isOpenDay}
                calendarStartDay={lang === "fa" ? 6 : 1}
                timeIntervals={MEETING_MINUTES}
                dateFormat="yyyy-MM-dd"
                ariaLabelledBy="booking-title"
              />
            </div>
          </fieldset>

          <div className="grid content-start gap-4">
            <div>
              <label htmlFor="bk-time" className="block text-sm font-semibold text-brand-950">
                {labels.time}
              </label>
              <select
                id="bk-time"
                value={slots.length ? time : ""}
                onChange={(e) => setTime(e.target.value)}
                disabled={loadingSlots || !slots.length}
                aria-describedby="bk-time-help"
                className={inputClass}
              >
                {slots.length ? (
                  slots.map((slot) => (
                    <option key={slot} value={slot}>
                      {slot}
                    </option>
                  ))
                ) : (
                  <option value="" disabled>
                    {loadingSlots ? labels.loadingSlots : labels.noSlotsOption}
                  </option>
                )}
              </select>
              <p id="bk-time-help" className="mt-1.5 text-sm text-muted">
                {labels.officeTime}
                {localEquivalent && slots.length > 0 && (
                  <span className="block font-medium text-brand-800">{localEquivalent}</span>
                )}
              </p>
              {!loadingSlots && !slots.length && (
                <p className="mt-2 text-sm font-medium text-red-700">{labels.noSlots}</p>
              )}
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

        <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={close} className="btn btn-secondary">
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
      </form>
    </dialog>
  );
}
