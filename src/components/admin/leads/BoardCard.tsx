/** One lead on the board: its reference, who, what, whose and when to follow up, and its own "Move to…". */
import type { DragEvent } from "react";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { LeadStage } from "#shared/leads.ts";
import { serviceDisplayName } from "#shared/services.ts";
import { useCopy } from "../copy";
import { euros } from "../sources/labels";
import { MoveControl } from "./MoveControl";
import { useDesk } from "./leads-api";

/** The drag's data type: the lead's id and stage, so a column knows whether it may take it. */
export const DRAG_TYPE = "application/x-lead";

interface Props {
  lead: AdminEnquiry;
  /** A stage this card was dropped on that needs details (lost, client). */
  asked: LeadStage | null;
  onAsked: () => void;
}

export function BoardCard({ lead, asked, onAsked }: Props) {
  const { copy, f, lang, date } = useCopy();
  const l = copy.leads;
  const desk = useDesk();
  const titleId = `lead-${lead.id}-title`;
  const owner = desk.owners.find((o) => o.id === lead.ownerId)?.username;
  const onDragStart = (event: DragEvent<HTMLElement>) => {
    event.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ id: lead.id, stage: lead.stage }));
    event.dataTransfer.effectAllowed = "move";
  };
  return (
    <article
      id={`lead-${lead.id}`}
      aria-labelledby={titleId}
      draggable
      onDragStart={onDragStart}
      data-testid="lead-card"
      className="rounded-xl bg-white p-3 shadow-card ring-1 ring-line"
    >
      <p className="text-xs font-semibold text-muted" dir="ltr" translate="no">
        {lead.reference}
      </p>
      <h3 id={titleId} className="mt-0.5 font-semibold text-ink [overflow-wrap:anywhere]" translate="no">
        {lead.firstName} {lead.lastName}
      </h3>
      <p className="mt-1 text-sm text-muted">{serviceDisplayName(lead.service, desk.serviceNames)}</p>
      <dl className="mt-2 grid gap-x-2 text-sm [grid-template-columns:auto_1fr]">
        {owner && (
          <>
            <dt className="text-muted">{l.owner}</dt>
            <dd translate="no">{owner}</dd>
          </>
        )}
        {lead.followUpOn && (
          <>
            <dt className="text-muted">{l.followUp}</dt>
            <dd>{date(lead.followUpOn)}</dd>
          </>
        )}
      </dl>
      {lead.clientValueCents !== null && (
        <p className="mt-1 text-sm font-medium">{f(l.valueOf, { value: euros(lang, lead.clientValueCents) })}</p>
      )}
      <MoveControl lead={lead} asked={asked} onDone={onAsked} describedBy={titleId} />
    </article>
  );
}
