import { useEffect, useState, type SubmitEvent } from "react";
import type { BookingRules as Rules, BookingRulesAnswer } from "#shared/api/availability.ts";
import { MEETING_PLACE_KINDS, type MeetingPlaceKind } from "#shared/office.ts";
import { VIDEO_ROOM_MARKER } from "#shared/schemas/availability.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import type { Language } from "#shared/languages.ts";
import { AdminOnly } from "./AdminOnly";
import { adminRequest, ApiError } from "./api";
import { fill, useAdminCopy, type AdminCopy } from "./copy";
import { BusyButton, ErrorNote, Field, iconPaths, inputClass, Loading, SaveBar, Section } from "./ui";

/** The form's fields as typed: notice and cut-off in hours, buffers in minutes, the cap empty for none. */
interface Draft {
  noticeHours: string;
  bufferBeforeMinutes: string;
  bufferAfterMinutes: string;
  dailyLimit: string;
  cutoffHours: string;
  meetingPlace: MeetingPlaceKind;
  videoPattern: string;
}
type Field = keyof Omit<Draft, "meetingPlace">;

// The API's limits (src/shared/schemas/availability.ts bookingRulesSchema), in the form's units.
const MAX = { noticeHours: 336, bufferMinutes: 240, cutoffHours: 168 };

const hours = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);
const toDraft = (rules: Rules): Draft => ({
  noticeHours: hours(rules.noticeMinutes),
  bufferBeforeMinutes: String(rules.bufferBeforeMinutes),
  bufferAfterMinutes: String(rules.bufferAfterMinutes),
  dailyLimit: rules.dailyLimit === null ? "" : String(rules.dailyLimit),
  cutoffHours: hours(rules.changeCutoffMinutes),
  meetingPlace: rules.meetingPlace,
  videoPattern: rules.videoPattern,
});

/** The payload, or the fields in error (in the admin's words). */
function parse(draft: Draft, copy: AdminCopy["bookingRules"], lang: Language) {
  const errors: Partial<Record<Field, string>> = {};
  const number = (field: Field, max: number, scale: number) => {
    const value = Number(draft[field].trim().replace(",", "."));
    if (draft[field].trim() === "" || !Number.isFinite(value) || value < 0 || value > max) {
      errors[field] = fill(lang, copy.errorNumber, { max });
      return 0;
    }
    return Math.round(value * scale);
  };
  const noticeMinutes = number("noticeHours", MAX.noticeHours, 60);
  const bufferBeforeMinutes = number("bufferBeforeMinutes", MAX.bufferMinutes, 1);
  const bufferAfterMinutes = number("bufferAfterMinutes", MAX.bufferMinutes, 1);
  const changeCutoffMinutes = number("cutoffHours", MAX.cutoffHours, 60);
  let dailyLimit: number | null = null;
  if (draft.dailyLimit.trim()) {
    dailyLimit = Number(draft.dailyLimit.trim());
    if (!Number.isInteger(dailyLimit) || dailyLimit < 1 || dailyLimit > 48) errors.dailyLimit = copy.errorLimit;
  }
  const videoPattern = draft.videoPattern.trim();
  if (!/^https:\/\/\S+$/.test(videoPattern) || !videoPattern.includes(VIDEO_ROOM_MARKER))
    errors.videoPattern = fill(lang, copy.errorPattern, { scheme: "https://", marker: VIDEO_ROOM_MARKER });
  const rules: Rules = {
    noticeMinutes,
    bufferBeforeMinutes,
    bufferAfterMinutes,
    dailyLimit,
    changeCutoffMinutes,
    meetingPlace: draft.meetingPlace,
    videoPattern,
  };
  return { rules, errors };
}

// The API's field names → the form's.
const FIELD_OF: Record<string, Field> = {
  noticeMinutes: "noticeHours",
  bufferBeforeMinutes: "bufferBeforeMinutes",
  bufferAfterMinutes: "bufferAfterMinutes",
  dailyLimit: "dailyLimit",
  changeCutoffMinutes: "cutoffHours",
  videoPattern: "videoPattern",
};

/**
 * The booking rules of the availability page: the guardrails every booking and move keeps to
 * (minimum notice, buffers, a daily maximum, the visitor's change cut-off) and where meetings
 * happen. In the panel's language.
 */
export default function BookingRules({ officeAddress }: { officeAddress: string }) {
  // Quiet: the office hours' island above tells an editor the page is for admins.
  return <AdminOnly quiet>{() => <RulesSection officeAddress={officeAddress} />}</AdminOnly>;
}

function RulesSection({ officeAddress }: { officeAddress: string }) {
  const texts = useAdminCopy();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    adminRequest<BookingRulesAnswer>("GET", ROUTES.admin.bookingRules)
      .then((answer) => active && setDraft(toDraft(answer.data)))
      // Signed out: the availability editor above sends the admin to the login page.
      .catch((error: unknown) => active && !(error instanceof ApiError && error.status === 401) && setFailed(true));
    return () => {
      active = false;
    };
  }, []);

  if (!texts) return null;
  const copy = texts.copy.bookingRules;
  return (
    <Section title={copy.title} intro={copy.intro} data-booking-rules="" lang={texts.lang} dir={texts.dir}>
      {failed ? (
        <ErrorNote className="mt-4">{copy.loadError}</ErrorNote>
      ) : !draft ? (
        <Loading>{copy.loading}</Loading>
      ) : (
        <RulesForm draft={draft} setDraft={setDraft} officeAddress={officeAddress} />
      )}
    </Section>
  );
}

function RulesForm({
  draft,
  setDraft,
  officeAddress,
}: {
  draft: Draft;
  setDraft: (draft: Draft) => void;
  officeAddress: string;
}) {
  const { lang, copy: all, f } = useAdminCopy()!;
  const copy = all.bookingRules;
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const set = (field: keyof Draft) => (value: string) => {
    setDraft({ ...draft, [field]: value });
    if (field in errors) setErrors(({ [field as Field]: _gone, ...rest }) => rest);
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const { rules, errors: found } = parse(draft, copy, lang);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) return setProblem(copy.saveError);
    setSaving(true);
    try {
      const answer = await adminRequest<BookingRulesAnswer>("PUT", ROUTES.admin.bookingRules, rules);
      setDraft(toDraft(answer.data));
      showToast({ title: copy.saved, description: copy.title, variant: "success" });
    } catch (error) {
      const fields = error instanceof ApiError ? (error.data as { errors?: Record<string, string[]> } | null) : null;
      const marked = Object.fromEntries(
        Object.keys(fields?.errors ?? {})
          .filter((name) => FIELD_OF[name])
          .map((name) => [FIELD_OF[name], copy.saveError]),
      );
      setErrors(marked);
      setProblem(copy.saveError);
    } finally {
      setSaving(false);
    }
  };

  const number = (field: Field, label: string, unit: string, help: string, step: string, max: number) => (
    <Field label={label} help={help} error={errors[field]}>
      {(p) => (
        <div className="flex items-center gap-2">
          <input
            {...p}
            name={field}
            type="number"
            inputMode="decimal"
            min={0}
            max={max}
            step={step}
            value={draft[field]}
            onChange={(e) => set(field)(e.target.value)}
            className={`${inputClass} max-w-32`}
          />
          <span className="text-sm text-muted">{unit}</span>
        </div>
      )}
    </Field>
  );

  const placeLabel: Record<MeetingPlaceKind, string> = {
    office: fill(lang, copy.placeOffice, { address: officeAddress }),
    phone: copy.placePhone,
    video: copy.placeVideo,
  };

  return (
    <form onSubmit={save} noValidate className="mt-5 grid gap-6">
      <div className="grid gap-6 md:grid-cols-2">
        {number("noticeHours", copy.notice, copy.hours, copy.noticeHelp, "0.25", MAX.noticeHours)}
        {number("cutoffHours", copy.cutoff, copy.hours, copy.cutoffHelp, "0.25", MAX.cutoffHours)}
        {number("bufferBeforeMinutes", copy.bufferBefore, copy.minutes, copy.bufferHelp, "5", MAX.bufferMinutes)}
        {number("bufferAfterMinutes", copy.bufferAfter, copy.minutes, copy.bufferHelp, "5", MAX.bufferMinutes)}
        {number("dailyLimit", copy.dailyLimit, "", copy.dailyLimitHelp, "1", 48)}
      </div>
      <fieldset className="border-t border-line pt-5">
        <legend className="text-sm font-semibold text-ink">{copy.place}</legend>
        <p id="booking-place-help" className="mt-1 text-sm text-muted">
          {copy.placeHelp}
        </p>
        <div className="mt-3 grid gap-2">
          {MEETING_PLACE_KINDS.map((kind) => (
            <label key={kind} className="flex min-h-11 items-center gap-3 text-ink">
              <input
                type="radio"
                name="meetingPlace"
                value={kind}
                checked={draft.meetingPlace === kind}
                onChange={() => set("meetingPlace")(kind)}
                aria-describedby="booking-place-help"
                className="size-5 accent-brand-600"
              />
              <span>{placeLabel[kind]}</span>
            </label>
          ))}
        </div>
        <Field
          label={copy.videoPattern}
          help={f(copy.videoPatternHelp, { marker: VIDEO_ROOM_MARKER })}
          error={errors.videoPattern}
          className="mt-4 max-w-xl"
        >
          {(p) => (
            <input
              {...p}
              name="videoPattern"
              type="url"
              dir="ltr"
              value={draft.videoPattern}
              onChange={(e) => set("videoPattern")(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
      </fieldset>
      <ErrorNote>{problem}</ErrorNote>
      <SaveBar>
        <BusyButton
          type="submit"
          primary
          busy={saving}
          label={copy.save}
          busyLabel={copy.saving}
          icon={iconPaths.check}
        />
      </SaveBar>
    </form>
  );
}
