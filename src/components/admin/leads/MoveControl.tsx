/**
 * A lead's own "Move to…": a button that opens the stages it may move to (src/shared/leads.ts), each
 * a button, so a lead moves by keyboard as well as by drag. Lost asks for a reason, client for the
 * service won and its value, before anything is sent; what was typed stays when the change fails.
 */
import { useState, type SubmitEvent } from "react";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import { allowedMoves, parseEuros, type LeadStage } from "#shared/leads.ts";
import { SERVICE_IDS } from "#shared/services.ts";
import { changeLead } from "../api";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, inputClass } from "../ui";
import { changeProblem, useDesk } from "./leads-api";

interface Props {
  lead: AdminEnquiry;
  /** A stage chosen elsewhere (a drop on the board) that needs details first. */
  asked?: LeadStage | null;
  onDone?: () => void;
  /** The lead as the server answered the change. */
  onMoved?: (lead: AdminEnquiry) => void;
  /** Names the lead for screen readers (the card's title id). */
  describedBy: string;
}

export function MoveControl({ lead, asked = null, onDone, onMoved, describedBy }: Props) {
  const text = useCopy();
  const { copy, f, lang } = text;
  const l = copy.leads;
  const desk = useDesk();
  const [open, setOpen] = useState(false);
  const [stage, setStage] = useState<LeadStage | null>(asked);
  const [reason, setReason] = useState("");
  const [service, setService] = useState(lead.service);
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [valueError, setValueError] = useState<string | null>(null);
  const choosing = stage ?? asked;

  const move = async (to: LeadStage, details: object = {}) => {
    setBusy(true);
    setError(null);
    try {
      const updated = await changeLead(lead, { stage: to, ...details });
      setOpen(false);
      setStage(null);
      onDone?.();
      onMoved?.(updated);
      desk.changed(updated);
    } catch (e) {
      setError(changeProblem(e, text));
    } finally {
      setBusy(false);
    }
  };

  const choose = (to: LeadStage) => (to === "lost" || to === "client" ? setStage(to) : void move(to));

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (choosing === "lost") return void move("lost", { lostReasonId: Number(reason) });
    const cents = parseEuros(value);
    if (cents === null) return setValueError(l.clientValueInvalid);
    setValueError(null);
    const won = SERVICE_IDS.includes(service as (typeof SERVICE_IDS)[number]) ? service : "other";
    void move("client", { clientService: won, ...(cents !== undefined && { clientValueCents: cents }) });
  };

  const cancel = () => {
    setStage(null);
    setError(null);
    onDone?.();
  };

  if (choosing === "lost" || choosing === "client") {
    const offered = desk.reasons.filter((r) => !r.archived);
    return (
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3" aria-describedby={describedBy}>
        {choosing === "lost" ? (
          <Field label={l.lostReason}>
            {(p) => (
              <select {...p} required value={reason} onChange={(e) => setReason(e.target.value)} className={inputClass}>
                <option value="">{l.chooseReason}</option>
                {offered.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.labels[lang]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <>
            <Field label={l.clientService}>
              {(p) => (
                <select {...p} value={service} onChange={(e) => setService(e.target.value)} className={inputClass}>
                  {SERVICE_IDS.map((id) => (
                    <option key={id} value={id}>
                      {desk.serviceNames[id]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={l.clientValue} help={l.clientValueHelp} error={valueError}>
              {(p) => (
                <input
                  {...p}
                  inputMode="decimal"
                  dir="ltr"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  className={inputClass}
                />
              )}
            </Field>
          </>
        )}
        <ErrorNote>{error}</ErrorNote>
        <div className="flex flex-wrap gap-2">
          <BusyButton
            type="submit"
            primary
            busy={busy}
            label={f(l.moveToStage, { reference: lead.reference, stage: l.stages[choosing] })}
          />
          <BusyButton busy={false} label={l.cancel} onClick={cancel} />
        </div>
      </form>
    );
  }

  const moves = allowedMoves(lead.stage);
  return (
    <div className="mt-3">
      <button
        type="button"
        className="btn btn-secondary min-h-11"
        aria-expanded={open}
        aria-describedby={describedBy}
        onClick={() => setOpen(!open)}
      >
        {l.moveTo}
      </button>
      {open && (
        <ul role="list" aria-label={l.moveTo} className="mt-2 flex flex-wrap gap-2">
          {moves.map((to) => (
            <li key={to}>
              <BusyButton
                busy={busy}
                label={l.stages[to]}
                describedBy={describedBy}
                onClick={() => choose(to)}
                className="min-h-11"
              />
            </li>
          ))}
        </ul>
      )}
      <ErrorNote className="mt-2">{error}</ErrorNote>
    </div>
  );
}
