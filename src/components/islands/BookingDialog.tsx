import { useCallback, useEffect, useRef, useState, type SubmitEvent } from "react";
import PrivacyNote, { type PrivacyNoteLabels } from "./PrivacyNote";
import { useHydrated } from "#src/lib/use-hydrated.ts";
import { useDialogOpen } from "#src/lib/use-dialog-open.ts";
import { formTokens, type GuardLabels } from "#src/lib/form-token.ts";
import Honeypot, { honeypotValue } from "./Honeypot";
import type { Language } from "#shared/languages.ts";
import type { MeetingPlaceKind } from "#shared/office.ts";
import type { Meeting } from "#shared/api/meetings.ts";
import { bookedText, bookingFailureText, type BookedLabels } from "#src/lib/booking-outcome.ts";
import {
  ANYONE,
  DEFAULT_PLACE,
  checkedBefore,
  consultantName,
  consultantQuery,
  isBookable,
  keptChoice,
  placeOf,
  type ConsultantOption,
} from "#src/lib/consultant-choice.ts";
import ConsultantChoice, { type ConsultantChoiceLabels } from "./ConsultantChoice";
import PlaceChoice, { type PlaceChoiceLabels } from "./PlaceChoice";
import VisitorFields, { visitorErrors, type VisitorField, type VisitorValues } from "./VisitorFields";
import { showToast } from "#src/stores/toasts.ts";
import { useOfficeCalendar } from "#src/lib/use-office-calendar.ts";
import SlotPicker, { CalendarLoading, inputClass, type SlotPickerLabels } from "./SlotPicker";
import { ROUTES } from "#shared/routes.ts";
import { DialogActions, DialogHeading } from "./BookingDialogParts";
import { leadSource } from "#src/lib/lead-source.ts";
import HeardSelect, { heardIn, type HeardLabels } from "./HeardSelect";

export interface BookingLabels extends SlotPickerLabels, ConsultantChoiceLabels, PlaceChoiceLabels {
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
  /** How the confirmation says the place: "by video". */
  placeSentence: Record<MeetingPlaceKind, string>;
  toast: BookedLabels & {
    errorTitle: string;
    errorMessage: string;
    slotTaken: string;
    /** The day reached its cap of meetings meanwhile. */
    dayFull: string;
    scheduleSuccess: string;
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
  /** The team, from team.json at build time, in the order offered (those who speak the page's language first). */
  consultants: readonly ConsultantOption[];
}

const DEFAULT_TIME = "09:00";
const EMPTY: VisitorValues = { name: "", email: "", phone: "" };

/** What the visitor typed into a field before this island hydrated (the dialog opens without React). */
const typedBefore = (id: string) =>
  typeof document === "undefined" ? "" : ((document.getElementById(id) as HTMLInputElement | null)?.value ?? "");

/**
 * The meeting booking form inside the static modal <dialog> of the
 * contact section. The dialog opens without any JavaScript (an invoker button), shows this form's
 * server-rendered shell with the calendar loading, and keeps what the visitor types meanwhile;
 * when this island arrives it fills in the calendar, starting on the first day with a free slot.
 * Above the calendar the visitor chooses whom to meet and how; the choice of consultant decides
 * which slots are asked for, and a consultant the server does not list cannot be chosen.
 */
export default function BookingDialog({ lang, labels, dialogId, consultants }: BookingDialogProps) {
  const [choice, setChoice] = useState(() => checkedBefore("consultant", ANYONE));
  const [place, setPlace] = useState(() => placeOf(checkedBefore("place", DEFAULT_PLACE)));
  const picker = useOfficeCalendar(labels.toast, DEFAULT_TIME, undefined, consultantQuery(choice, lang));
  const { calendar, date, time, slots, loadSlots, start, requery } = picker;
  const [processing, setProcessing] = useState(false);
  const [values, setValues] = useState<VisitorValues>(() => ({
    name: typedBefore("bk-name"),
    email: typedBefore("bk-email"),
    phone: typedBefore("bk-phone"),
  }));
  const [errors, setErrors] = useState<Partial<Record<VisitorField, string>>>({});
  const [tokens] = useState(formTokens);
  useEffect(() => tokens.prefetch(), [tokens]);

  const { open, dialog } = useDialogOpen(dialogId);
  const hydrated = useHydrated();

  // On the first opening: the office calendar, then the first day that still has a free slot.
  useEffect(() => {
    if (open && !calendar) void start();
  }, [open, calendar, start]);

  const listed = calendar?.consultants;
  const bookable = useCallback((id: string) => isBookable(id, listed), [listed]);
  const chooseConsultant = useCallback(
    (id: string) => {
      setChoice(id);
      void requery(consultantQuery(id, lang));
    },
    [requery, lang],
  );
  // A consultant chosen before the calendar said who can be booked, who cannot: whoever is free, once.
  const chosen = keptChoice(choice, listed);
  const dropped = useRef(false);
  useEffect(() => {
    if (chosen === choice || dropped.current) return;
    dropped.current = true;
    void requery(consultantQuery(chosen, lang));
  }, [chosen, choice, requery, lang]);

  const { name, email, phone } = values;
  const ready = hydrated && !!calendar && !!date;
  const complete = Boolean(ready && name.trim() && email.trim() && phone.trim() && date && time && slots.length);

  const confirm = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const honeypot = honeypotValue(form);
    if (!complete) return;
    const found = visitorErrors(values, labels.validation);
    setErrors(found);
    if (Object.keys(found).length) return;
    setProcessing(true);
    try {
      const answer = await tokens.send<{ data?: Partial<Meeting> & { consultant?: string | null } }>(
        ROUTES.meetings.schedule,
        {
          name: name.trim(),
          email: email.trim(),
          phone: phone.trim(),
          date,
          time,
          language: lang,
          consultant: chosen,
          place,
          source: leadSource(heardIn(form)),
        },
        honeypot,
      );
      const assigned = consultantName(answer?.data?.consultant ?? (chosen === ANYONE ? null : chosen), consultants);
      showToast({
        title: labels.toast.scheduleSuccess,
        description: bookedText(lang, labels.toast, labels.placeSentence, { date, time, place, consultant: assigned }),
        variant: "success",
      });
      setValues(EMPTY);
      dialog()?.close();
      void loadSlots(date);
    } catch (error) {
      const description = bookingFailureText(error, {
        ...labels.toast,
        validation: labels.validation,
        guard: labels.guard,
      });
      showToast({ title: labels.toast.errorTitle, description, variant: "destructive" });
      await loadSlots(date, true);
    } finally {
      setProcessing(false);
    }
  };

  const edit = (field: VisitorField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const closeButton = { commandfor: dialogId, command: "close" } as const;

  return (
    <form onSubmit={confirm} noValidate className="relative p-6 sm:p-8" aria-busy={!ready}>
      <DialogHeading
        title={labels.title}
        description={labels.description}
        closeLabel={labels.close}
        closeButton={closeButton}
      />

      <div className="mt-6 grid gap-5">
        <ConsultantChoice
          labels={labels}
          consultants={consultants}
          value={chosen}
          onChange={chooseConsultant}
          bookable={bookable}
        />
        <PlaceChoice labels={labels} value={place} onChange={setPlace} />
      </div>

      <div className="mt-6 grid gap-6 md:grid-cols-[auto_1fr]">
        <SlotPicker
          lang={lang}
          labels={labels}
          picker={picker}
          idPrefix="bk"
          ready={ready}
          placeholder={<CalendarLoading text={labels.loadingCalendar} />}
        >
          <VisitorFields labels={labels} values={values} errors={errors} onChange={edit} />
        </SlotPicker>
      </div>

      <div className="mt-4">
        <HeardSelect id="bk-heard" labels={labels.heard} className={inputClass} />
      </div>
      <PrivacyNote labels={labels.privacy} className="mt-6" />
      <DialogActions labels={labels} closeButton={closeButton} processing={processing} disabled={!complete} />
      {/* Last, so that the dialog's first focusable element is never the trap. */}
      <Honeypot id="bk-website" label={labels.guard.honeypot} />
    </form>
  );
}
