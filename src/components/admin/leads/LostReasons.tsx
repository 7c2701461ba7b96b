/**
 * The editor of the reasons a lead is lost for (GET/POST/PATCH /api/admin/lost-reasons): each reason
 * in the three languages, added, renamed, archived (no longer offered) or offered again. There is no
 * delete: leads that name a reason keep showing it, archived or not. After each change the desk's
 * Lost column is told the new list (announceLostReasons).
 */
import { useState, type SubmitEvent } from "react";
import type { LostReason } from "#shared/api/enquiries.ts";
import { dirOf, LANGUAGES, type Language } from "#shared/languages.ts";
import { LOST_REASON_MAX_LENGTH } from "#shared/leads.ts";
import { useCopy } from "../copy";
import {
  Badge,
  BusyButton,
  ErrorNote,
  Field,
  iconPaths,
  inputClass,
  Loading,
  RowList,
  SaveBar,
  Section,
  useAction,
  useResource,
} from "../ui";
import { addLostReason, announceLostReasons, changeLostReason, fetchLostReasons } from "./leads-api";

type Labels = LostReason["labels"];
const EMPTY = Object.fromEntries(LANGUAGES.map((lang) => [lang, ""])) as Labels;

export function LostReasons() {
  const { copy } = useCopy();
  const l = copy.leads;
  const reasons = useResource(fetchLostReasons);
  /** The list after a change: shown here and offered by the desk at once. */
  const replace = (reason: LostReason) => {
    const list = reasons.data ?? [];
    const next = list.some((r) => r.id === reason.id)
      ? list.map((r) => (r.id === reason.id ? reason : r))
      : [...list, reason];
    reasons.set(next);
    announceLostReasons(next);
  };
  return (
    <Section title={l.reasons} intro={l.reasonsHelp} className="mt-8" data-testid="lost-reasons">
      {reasons.failed ? (
        <ErrorNote className="mt-5">{l.reasonsFailed}</ErrorNote>
      ) : !reasons.data ? (
        <Loading>{copy.common.loading}</Loading>
      ) : (
        <RowList data-testid="lost-reason-rows">
          {reasons.data.map((reason) => (
            <ReasonRow key={reason.id} reason={reason} onChanged={replace} />
          ))}
        </RowList>
      )}
      <h3 className="mt-6 text-base font-semibold text-brand-950">{l.newReason}</h3>
      <LabelsForm
        initial={EMPTY}
        submitLabel={l.addReason}
        testId="lost-reason-new"
        onSubmit={async (labels) => replace(await addLostReason(labels))}
        clearAfter
      />
    </Section>
  );
}

/** One reason: its three labels (each in its own language and direction), rename and archive. */
function ReasonRow({ reason, onChanged }: { reason: LostReason; onChanged: (reason: LostReason) => void }) {
  const { copy, languageName } = useCopy();
  const l = copy.leads;
  const [renaming, setRenaming] = useState(false);
  const archive = useAction();
  const toggle = () =>
    archive.run(
      async () => onChanged(await changeLostReason(reason.id, { archived: !reason.archived })),
      l.reasonNotSaved,
    );
  return (
    <li className="p-4" data-testid={`lost-reason-${reason.id}`}>
      {renaming ? (
        <LabelsForm
          initial={reason.labels}
          submitLabel={l.saveReason}
          testId={`lost-reason-${reason.id}-form`}
          onSubmit={async (labels) => {
            onChanged(await changeLostReason(reason.id, { labels }));
            setRenaming(false);
          }}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <dl className="grid min-w-0 flex-1 gap-x-6 gap-y-1 sm:grid-cols-3">
            {LANGUAGES.map((lang) => (
              <div key={lang} className="min-w-0">
                <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{languageName(lang)}</dt>
                <dd lang={lang} dir={dirOf(lang)} className="text-ink [overflow-wrap:anywhere]">
                  {reason.labels[lang]}
                </dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-wrap items-center gap-2 sm:shrink-0 sm:flex-nowrap">
            {reason.archived && <Badge tone="off">{l.archived}</Badge>}
            <button type="button" className="btn btn-secondary" onClick={() => setRenaming(true)}>
              {l.rename}
            </button>
            <BusyButton
              busy={archive.busy !== null}
              label={reason.archived ? l.restore : l.archive}
              icon={reason.archived ? iconPaths.undo : undefined}
              onClick={toggle}
            />
          </div>
        </div>
      )}
      <ErrorNote className="mt-2">{archive.error}</ErrorNote>
    </li>
  );
}

/** The three labels of a reason, each typed in its language; nothing typed is lost when saving fails. */
function LabelsForm({
  initial,
  submitLabel,
  testId,
  onSubmit,
  onCancel,
  clearAfter,
}: {
  initial: Labels;
  submitLabel: string;
  testId: string;
  onSubmit: (labels: Labels) => Promise<void>;
  onCancel?: () => void;
  /** Empty the fields once saved (the add form). */
  clearAfter?: boolean;
}) {
  const { copy, f, languageName } = useCopy();
  const l = copy.leads;
  const [labels, setLabels] = useState<Labels>(initial);
  const [missing, setMissing] = useState<Language[]>([]);
  const save = useAction();
  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(LANGUAGES.map((lang) => [lang, labels[lang].trim()])) as Labels;
    const empty = LANGUAGES.filter((lang) => !trimmed[lang]);
    setMissing(empty);
    if (empty.length) return;
    if ((await save.run(() => onSubmit(trimmed), l.reasonNotSaved)) && clearAfter) setLabels(EMPTY);
  };
  return (
    <form onSubmit={submit} noValidate data-testid={testId} className="mt-3">
      <div className="grid gap-4 sm:grid-cols-3">
        {LANGUAGES.map((lang) => (
          <Field
            key={lang}
            label={f(l.reasonLabel, { language: languageName(lang) })}
            error={missing.includes(lang) ? l.reasonRequired : null}
          >
            {(props) => (
              <input
                {...props}
                lang={lang}
                dir={dirOf(lang)}
                name={`label-${lang}`}
                maxLength={LOST_REASON_MAX_LENGTH}
                value={labels[lang]}
                onChange={(e) => setLabels({ ...labels, [lang]: e.target.value })}
                className={inputClass}
              />
            )}
          </Field>
        ))}
      </div>
      <ErrorNote className="mt-3">{save.error}</ErrorNote>
      <SaveBar>
        {onCancel && (
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {l.cancel}
          </button>
        )}
        <BusyButton busy={save.busy !== null} type="submit" primary label={submitLabel} icon={iconPaths.check} />
      </SaveBar>
    </form>
  );
}
