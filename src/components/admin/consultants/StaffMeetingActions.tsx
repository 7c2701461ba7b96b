/**
 * Staff's hand-over and move of a meeting card (functions/_lib/booking/staff-changes.ts), each in a
 * MeetingDialog. Both send the meeting as the card shows it, so a change another admin made
 * meanwhile is refused (meetingChanged) rather than undone.
 */
import { useStore } from "@nanostores/react";
import { useRef, useState } from "react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { adminRequest } from "../api";
import { useCopy } from "../copy";
import { DateField, Field, iconPaths, inputClass } from "../ui";
import { MeetingDialog } from "./MeetingDialog";
import { useConsultantName } from "./MeetingConsultant";
import { $consultants } from "./store";

type Props = { meeting: AdminMeeting; describedBy: string; onChanged: (updated: AdminMeeting) => void };

const was = (m: AdminMeeting) => ({ date: m.date, time: m.time, consultant: m.consultant });

export function HandOverButton({ meeting, describedBy, onChanged }: Props) {
  const { copy, f, lang, date, time } = useCopy();
  const c = copy.staffMeetings.handOver;
  const colleagues = (useStore($consultants) ?? []).filter(
    (x) => x.active && x.id !== meeting.consultant && x.languages.includes(meeting.language),
  );
  const [to, setTo] = useState("");
  return (
    <MeetingDialog
      icon={iconPaths.undo}
      texts={c}
      describedBy={describedBy}
      ready={colleagues.some((x) => x.id === to)}
      onOpen={() => setTo(colleagues[0]?.id ?? "")}
      send={() =>
        adminRequest<AdminMeeting>("POST", fill(ROUTES.admin.meetingConsultant, { id: meeting.id }), {
          consultant: to,
          was: was(meeting),
        })
      }
      onDone={onChanged}
    >
      <p className="text-muted">
        {f(c.text, { name: meeting.name, date: date(meeting.date), time: time(meeting.time) })}
      </p>
      {colleagues.length ? (
        <Field label={c.to}>
          {(p) => (
            <select {...p} value={to} onChange={(e) => setTo(e.target.value)} className={inputClass}>
              {colleagues.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name[lang]}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <p className="font-medium text-muted">{c.none}</p>
      )}
    </MeetingDialog>
  );
}

/** The consultant's free times on `date` (the public slots, which keep to their rules), or null when they cannot be read. */
async function freeTimes(consultant: string, day: string): Promise<string[] | null> {
  const query = new URLSearchParams({ date: day, consultant });
  const res = await fetch(`${ROUTES.meetings.availableSlots}?${query}`).catch(() => null);
  const body = res?.ok ? ((await res.json()) as { data?: unknown }) : null;
  return Array.isArray(body?.data) ? body.data.filter((t): t is string => typeof t === "string") : null;
}

export function MoveMeetingButton({
  meeting,
  describedBy,
  onChanged,
  consultantName,
}: Props & { consultantName: string }) {
  const { copy, f, time } = useCopy();
  const c = copy.staffMeetings.move;
  const [day, setDay] = useState("");
  const [times, setTimes] = useState<string[] | null>(null);
  const [at, setAt] = useState("");
  // The day last picked: a slower answer for a day picked before it must not fill in its times.
  const picked = useRef("");
  const pick = async (next: string) => {
    picked.current = next;
    setDay(next);
    setTimes(null);
    setAt("");
    if (!next) return;
    const free = await freeTimes(meeting.consultant, next);
    if (picked.current !== next) return;
    setTimes(free ?? []);
    setAt(free?.[0] ?? "");
  };
  return (
    <MeetingDialog
      icon={iconPaths.calendar}
      texts={c}
      describedBy={describedBy}
      ready={Boolean(day && at)}
      onOpen={() => void pick(meeting.date)}
      send={() =>
        adminRequest<AdminMeeting>("POST", fill(ROUTES.admin.meetingMove, { id: meeting.id }), {
          date: day,
          time: at,
          was: was(meeting),
        })
      }
      onDone={onChanged}
    >
      <p className="text-muted">{f(c.text, { who: consultantName })}</p>
      <Field label={c.date}>
        {(p) => <DateField {...p} value={day} onChange={(iso) => void pick(iso)} className={inputClass} />}
      </Field>
      {times && !times.length ? (
        <p className="font-medium text-muted">{f(c.noTimes, { who: consultantName })}</p>
      ) : (
        <Field label={c.time}>
          {(p) => (
            <select {...p} value={at} onChange={(e) => setAt(e.target.value)} disabled={!times} className={inputClass}>
              {(times ?? []).map((t) => (
                <option key={t} value={t}>
                  {time(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </MeetingDialog>
  );
}

/** Hand over and Move of a standing meeting that has not begun. */
export function StaffMeetingActions(props: Props) {
  const name = useConsultantName(props.meeting.consultant);
  return (
    <>
      <HandOverButton {...props} />
      <MoveMeetingButton {...props} consultantName={name} />
    </>
  );
}
