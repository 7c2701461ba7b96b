/**
 * A consultant's weekly hours on the Consultants page: the office's, or their own, edited with the
 * availability page's week editor (PATCH /api/admin/consultants/{id} { hours }, null: the office's).
 */
import { useId, useState, type SubmitEvent } from "react";
import type { AdminConsultant, ConsultantChangeAnswer } from "#shared/api/consultants.ts";
import type { IsoWeekday, OpeningHours } from "#shared/office.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { WeekHours } from "../availability/HoursForm";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, iconPaths, SaveBar, Segmented, useAction } from "../ui";

/** Weekly hours as lines, one per open day: "Monday 09:00 to 13:00, 14:00 to 17:00". */
export function HoursList({ hours }: { hours: readonly OpeningHours[] }) {
  const { copy, time, lang } = useCopy();
  const a = copy.availability;
  const days = [...new Set(hours.map((h) => h.weekday))].sort() as IsoWeekday[];
  const list = new Intl.ListFormat(lang, { type: "unit" });
  return (
    <ul role="list" className="text-muted">
      {days.map((day) => (
        <li key={day}>
          <span className="font-medium text-ink">{a.weekdays[day]}</span>{" "}
          {list.format(hours.filter((h) => h.weekday === day).map((h) => `${time(h.opens)} ${a.to} ${time(h.closes)}`))}
        </li>
      ))}
    </ul>
  );
}

export function ConsultantHours({
  id,
  consultant,
  office,
  onSaved,
}: {
  id: string;
  consultant: AdminConsultant;
  office: OpeningHours[];
  onSaved: (hours: OpeningHours[] | null) => void;
}) {
  const { copy, f, lang } = useCopy();
  const c = copy.consultants;
  const titleId = useId();
  const name = consultant.name[lang];
  const [own, setOwn] = useState(consultant.hours !== null);
  const [hours, setHours] = useState<OpeningHours[]>(consultant.hours ?? office);
  const save = useAction();

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void save.run(async () => {
      const answer = await adminRequest<ConsultantChangeAnswer>(
        "PATCH",
        fill(ROUTES.admin.consultant, { id: consultant.id }),
        { hours: own ? hours : null },
      );
      onSaved(answer.hours ?? null);
      showToast({ title: c.hoursSaved, description: f(c.hoursSavedText, { name }), variant: "success" });
    }, c.hoursError);
  };

  return (
    <form
      id={id}
      onSubmit={submit}
      aria-labelledby={titleId}
      className="rounded-xl bg-slate-50 p-4 ring-1 ring-line sm:p-5"
      data-testid="hours-editor"
    >
      <h4 id={titleId} className="font-bold text-brand-950">
        {f(c.hoursTitle, { name })}
      </h4>
      <p className="mt-1 text-sm text-muted">{c.hoursHelp}</p>
      <Segmented
        className="mt-4"
        label={c.whichHours}
        value={own ? "own" : "office"}
        options={[
          { value: "office", label: c.officeHours },
          { value: "own", label: c.ownHours },
        ]}
        onChange={(value) => setOwn(value === "own")}
      />
      {own ? (
        <WeekHours hours={hours} onChange={setHours} />
      ) : (
        <div className="mt-4 text-sm">
          <HoursList hours={office} />
        </div>
      )}
      <ErrorNote className="mt-4">{save.error}</ErrorNote>
      <SaveBar>
        <BusyButton
          type="submit"
          primary
          busy={save.busy !== null}
          label={c.saveHours}
          busyLabel={copy.common.saving}
          icon={iconPaths.check}
        />
      </SaveBar>
    </form>
  );
}
