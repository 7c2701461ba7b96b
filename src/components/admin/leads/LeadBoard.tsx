/**
 * The board: a column per stage (new … client, lost) with its count and newest leads. A card moves
 * by its own "Move to…" (keyboard, touch) or, as an enhancement, by dragging it onto a column that
 * may take it; a drop on lost or client opens the card's details first.
 */
import { useCallback, useEffect, useState, type DragEvent } from "react";
import type { EnquiryFilters } from "#shared/admin-lists.ts";
import type { LeadBoard as Board } from "#shared/api/enquiries.ts";
import { canMove, isLeadStage, type LeadStage } from "#shared/leads.ts";
import { changeLead } from "../api";
import { useCopy } from "../copy";
import { EmptyState, ErrorNote, iconPaths, Loading } from "../ui";
import { BoardCard, DRAG_TYPE } from "./BoardCard";
import { changeProblem, DeskContext, fetchBoard, useDesk } from "./leads-api";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; board: Board };

/** The lead a drag carries, when it is one of ours. */
function dragged(event: DragEvent): { id: number; stage: LeadStage } | null {
  try {
    const data = JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as { id?: unknown; stage?: unknown };
    return typeof data.id === "number" && isLeadStage(data.stage) ? { id: data.id, stage: data.stage } : null;
  } catch {
    return null;
  }
}

export function LeadBoard({ filters }: { filters: EnquiryFilters }) {
  const text = useCopy();
  const { copy, f, n } = text;
  const l = copy.leads;
  const desk = useDesk();
  const [state, setState] = useState<State>({ status: "loading" });
  const [asked, setAsked] = useState<{ id: number; stage: LeadStage } | null>(null);
  const [over, setOver] = useState<LeadStage | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      fetchBoard(filters).then(
        (board) => setState({ status: "ready", board }),
        () => setState({ status: "error" }),
      ),
    [filters],
  );
  useEffect(() => void load(), [load]);

  if (state.status === "loading") return <Loading>{l.title}</Loading>;
  if (state.status === "error")
    return (
      <EmptyState tone="error" icon={iconPaths.alert} title={l.loadFailed}>
        {l.dragHint}
      </EmptyState>
    );

  const drop = async (event: DragEvent, to: LeadStage) => {
    event.preventDefault();
    setOver(null);
    const lead = dragged(event);
    if (!lead || !canMove(lead.stage, to)) return;
    if (to === "lost" || to === "client") return setAsked({ id: lead.id, stage: to });
    const item = state.board.columns.flatMap((c) => c.items).find((i) => i.id === lead.id);
    if (!item) return;
    setError(null);
    try {
      desk.changed(await changeLead(item, { stage: to }));
    } catch (e) {
      setError(changeProblem(e, text));
    }
  };

  return (
    <DeskContext.Provider value={{ ...desk, changed: (lead) => (desk.changed(lead), void load()) }}>
      <p className="mt-4 text-sm text-muted">{l.dragHint}</p>
      <ErrorNote className="mt-3">{error}</ErrorNote>
      <div className="mt-4 flex snap-x gap-4 overflow-x-auto pb-4" data-testid="lead-board">
        {state.board.columns.map((column) => (
          <section
            key={column.stage}
            aria-labelledby={`column-${column.stage}`}
            data-stage={column.stage}
            onDragOver={(event) => {
              if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
              event.preventDefault();
              setOver(column.stage);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(event) => void drop(event, column.stage)}
            className={`flex w-72 shrink-0 snap-start flex-col gap-3 rounded-2xl p-3 ${over === column.stage ? "bg-brand-50 ring-2 ring-brand-600" : "bg-slate-100"}`}
          >
            <h2 id={`column-${column.stage}`} className="flex items-baseline justify-between gap-2 font-semibold">
              {l.stages[column.stage]}
              <span className="text-sm font-normal text-muted">{n(column.count)}</span>
            </h2>
            {column.items.length === 0 && <p className="text-sm text-muted">{l.empty}</p>}
            <ul role="list" className="flex flex-col gap-3">
              {column.items.map((lead) => (
                <li key={lead.id}>
                  <BoardCard
                    lead={lead}
                    asked={asked?.id === lead.id ? asked.stage : null}
                    onAsked={() => setAsked(null)}
                  />
                </li>
              ))}
            </ul>
            {column.count > column.items.length && (
              <p className="text-sm text-muted">{f(l.more, { count: column.count - column.items.length })}</p>
            )}
          </section>
        ))}
      </div>
    </DeskContext.Provider>
  );
}
