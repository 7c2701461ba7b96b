/**
 * A lead's owner and follow-up date, on its card. The owner is saved as it is chosen; the date with
 * its own button (or "No date"). A change based on an older version of the lead is refused by the
 * server and said so (changed by X meanwhile); what was chosen stays in the field.
 */
import { useState } from "react";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { LeadPatch } from "#shared/schemas/enquiries.ts";
import { showToast } from "#src/stores/toasts.ts";
import { changeLead } from "../api";
import { useCopy } from "../copy";
import { BusyButton, DateField, ErrorNote, Field, inputClass } from "../ui";
import { changeProblem, useDesk } from "./leads-api";

interface Props {
  lead: AdminEnquiry;
  /** The lead as the server answered the change. */
  onChanged: (lead: AdminEnquiry) => void;
  /** Names the lead for screen readers (the card's title id). */
  describedBy: string;
}

export function LeadPlan({ lead, onChanged, describedBy }: Props) {
  const text = useCopy();
  const l = text.copy.leads;
  const desk = useDesk();
  const [date, setDate] = useState(lead.followUpOn ?? "");
  const [busy, setBusy] = useState<"owner" | "date" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = async (what: "owner" | "date", change: Omit<LeadPatch, "version">) => {
    setBusy(what);
    setError(null);
    try {
      const updated = await changeLead(lead, change);
      onChanged(updated);
      desk.changed(updated);
      if (what === "owner") showToast({ title: l.ownerSaved, variant: "success" });
    } catch (problem) {
      setError(changeProblem(problem, text));
    } finally {
      setBusy(null);
    }
  };

  const owners = desk.owners.some((o) => o.id === lead.ownerId) || lead.ownerId === null ? desk.owners : [];
  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={l.owner}>
          {(props) => (
            <select
              {...props}
              className={inputClass}
              value={lead.ownerId ?? ""}
              disabled={busy !== null || owners.length === 0}
              onChange={(e) => void save("owner", { ownerId: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">{l.nobody}</option>
              {owners.map((o) => (
                <option key={o.id} value={o.id} translate="no">
                  {o.username}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={l.followUp}>
          {(props) => <DateField {...props} value={date} onChange={setDate} className={inputClass} />}
        </Field>
      </div>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          busy={busy === "date"}
          disabled={busy !== null || date === (lead.followUpOn ?? "")}
          label={l.followUpSave}
          describedBy={describedBy}
          onClick={() => void save("date", { followUpOn: date || null })}
        />
        {lead.followUpOn && (
          <BusyButton
            busy={false}
            disabled={busy !== null}
            label={l.followUpClear}
            describedBy={describedBy}
            onClick={() => {
              setDate("");
              void save("date", { followUpOn: null });
            }}
          />
        )}
      </div>
      <ErrorNote>{error}</ErrorNote>
    </div>
  );
}
