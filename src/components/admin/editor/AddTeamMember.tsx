/**
 * The content editor's "Add a team member" form (under Team): name, role and bio in every language,
 * the languages they hold meetings in and the services they take. The id is made from the English
 * name and shown as it is typed; POST /api/content/team appends the member to team.json and
 * publishes it like a text change. The server's refusals of a text (the copy rules) show by field.
 */
import { useId, useState, type SubmitEvent } from "react";
import type { ContentAnswer, PublishStatus } from "#shared/api/content.ts";
import { dirOf, LANGUAGES, type Language } from "#shared/languages.ts";
import { BOOKABLE_SERVICES, serviceNameKey, type ServiceId } from "#shared/services.ts";
import { TEAM_LIMITS, teamMemberId } from "#shared/schemas/content.ts";
import { ApiError, addTeamMember } from "../api";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, inputClass, problem } from "../ui";

type TextField = keyof typeof TEAM_LIMITS;
const TEXT_FIELDS = Object.keys(TEAM_LIMITS) as TextField[];
type Texts = Record<TextField, Record<Language, string>>;

const emptyTexts = (): Texts =>
  Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, Object.fromEntries(LANGUAGES.map((lang) => [lang, ""]))]),
  ) as Texts;

/** Checkboxes of `options`: the chosen ones in `value`, in the options' order. */
function Choices<T extends string>(props: {
  legend: string;
  options: readonly T[];
  labelOf: (option: T) => string;
  value: T[];
  onChange: (value: T[]) => void;
  error?: string;
}) {
  const errorId = useId();
  const { legend, options, labelOf, value, onChange, error } = props;
  return (
    <fieldset className="mt-5" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2 text-ink">
            <input
              type="checkbox"
              className="size-4"
              checked={value.includes(option)}
              onChange={(event) =>
                onChange(options.filter((o) => (o === option ? event.target.checked : value.includes(o))))
              }
            />
            {labelOf(option)}
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** `onAdded`: the member is committed; the editor loads the texts again. */
export function AddTeamMember({
  data,
  onAdded,
}: {
  data: ContentAnswer;
  onAdded: (publish: PublishStatus, at: string | null) => void;
}) {
  const { copy, f, languageName, lang: panelLang } = useCopy();
  const tx = copy.editor.addMember;
  const [texts, setTexts] = useState(emptyTexts);
  const [languages, setLanguages] = useState<Language[]>([]);
  const [services, setServices] = useState<ServiceId[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const id = teamMemberId(texts.name.en);
  const taken = data.collections.team.some((member) => member.id === id);
  const serviceName = (service: ServiceId) =>
    data.texts[panelLang]?.[serviceNameKey(service)] || data.texts.en[serviceNameKey(service)] || service;

  /** The problems the browser can see: empty texts, the id, nothing chosen. */
  const check = () => {
    const found: Record<string, string> = {};
    for (const field of TEXT_FIELDS)
      for (const lang of LANGUAGES) if (!texts[field][lang].trim()) found[`${field}.${lang}`] = tx.required;
    if (texts.name.en.trim() && !id) found["name.en"] = tx.idMissing;
    else if (taken) found["name.en"] = f(tx.idTaken, { id });
    if (!languages.length) found.languages = tx.pickOne;
    if (!services.length) found.services = tx.pickOne;
    return found;
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNote(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) {
      setNote({ ok: false, text: tx.fixFirst });
      return;
    }
    setBusy(true);
    try {
      const answer = await addTeamMember(data.revisions, { ...texts, languages, services });
      setNote({ ok: true, text: f(tx.added, { name: texts.name[panelLang] || texts.name.en }) });
      setTexts(emptyTexts());
      setLanguages([]);
      setServices([]);
      onAdded(answer.publish, answer.at);
    } catch (error) {
      const fields = error instanceof ApiError ? (error.data as { errors?: Record<string, string[]> })?.errors : null;
      if (error instanceof ApiError && error.status === 409) setErrors({ "name.en": f(tx.idTaken, { id }) });
      else if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.join(" ")])));
      setNote({ ok: false, text: fields ? tx.fixFirst : problem(error, tx.failed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="add-member-heading" className="card mt-5 p-5" data-testid="add-team-member">
      <h3 id="add-member-heading" className="text-lg font-semibold text-brand-900">
        {tx.title}
      </h3>
      <p className="mt-1 max-w-3xl text-sm text-muted">{tx.intro}</p>
      <form noValidate onSubmit={submit}>
        {TEXT_FIELDS.map((field) => (
          <fieldset key={field} className="mt-5">
            <legend className="text-base font-semibold text-brand-950">{tx[field]}</legend>
            <div className={`mt-2 grid gap-3 ${field === "bio" ? "" : "sm:grid-cols-3"}`}>
              {LANGUAGES.map((lang) => {
                const Control = field === "bio" ? "textarea" : "input";
                return (
                  <Field
                    key={lang}
                    label={languageName(lang)}
                    error={errors[`${field}.${lang}`]}
                    help={field === "name" && lang === "en" && id ? f(tx.idHint, { id }) : undefined}
                  >
                    {(props) => (
                      <Control
                        {...props}
                        lang={lang}
                        dir={dirOf(lang)}
                        maxLength={TEAM_LIMITS[field]}
                        rows={field === "bio" ? 3 : undefined}
                        value={texts[field][lang]}
                        onChange={(event) =>
                          setTexts((all) => ({ ...all, [field]: { ...all[field], [lang]: event.target.value } }))
                        }
                        className={inputClass}
                      />
                    )}
                  </Field>
                );
              })}
            </div>
          </fieldset>
        ))}
        <Choices
          legend={tx.languages}
          options={LANGUAGES}
          labelOf={languageName}
          value={languages}
          onChange={setLanguages}
          error={errors.languages}
        />
        <Choices
          legend={tx.services}
          options={BOOKABLE_SERVICES}
          labelOf={serviceName}
          value={services}
          onChange={setServices}
          error={errors.services}
        />
        <div className="mt-6 flex flex-wrap items-center gap-4">
          <BusyButton type="submit" primary busy={busy} label={tx.submit} busyLabel={tx.busy} />
          <div role="status" aria-live="polite">
            {note?.ok && <p className="text-sm font-semibold text-green-800">{note.text}</p>}
          </div>
        </div>
        {note && !note.ok && <ErrorNote className="mt-3">{note.text}</ErrorNote>}
      </form>
    </section>
  );
}
