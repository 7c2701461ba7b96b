/** A meeting card's consultant: who has it and why it went to them (the assignment the booking kept). */
import { useStore } from "@nanostores/react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { useCopy } from "../copy";
import { $consultants } from "./store";

/** The consultant's name in the panel's language (their id while the list loads or when they have no profile). */
export function useConsultantName(id: string): string {
  const { lang } = useCopy();
  return useStore($consultants)?.find((c) => c.id === id)?.name[lang] ?? id;
}

export function MeetingConsultant({ meeting }: { meeting: AdminMeeting }) {
  const { copy, f, n } = useCopy();
  const c = copy.staffMeetings;
  const name = useConsultantName(meeting.consultant);
  const assignment = meeting.assignment;
  const why = !assignment
    ? c.why.before
    : assignment.rule !== "fair"
      ? c.why[assignment.rule]
      : f(c.why.fair, { count: n(assignment.compared.find((x) => x.id === meeting.consultant)?.recent ?? 0) });
  return (
    <span data-consultant={meeting.consultant}>
      <span className="font-medium">{name}</span>
      <span className="block text-sm text-muted">{why}</span>
    </span>
  );
}
