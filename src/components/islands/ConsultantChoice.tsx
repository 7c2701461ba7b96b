import { ANYONE, type ConsultantOption } from "#src/lib/consultant-choice.ts";

export interface ConsultantChoiceLabels {
  who: string;
  anyone: string;
  /** "The first free consultant who speaks Persian": filled in with the page's language. */
  anyoneHint: string;
  unavailable: string;
}

export interface ConsultantChoiceProps {
  labels: ConsultantChoiceLabels;
  /** The team in the order offered: those who speak the page's language first. */
  consultants: readonly ConsultantOption[];
  value: string;
  onChange: (id: string) => void;
  /** Whether a consultant can be booked now (all of them until the server says otherwise). */
  bookable: (id: string) => boolean;
}

/** One choice of a radio group as a card: the native radio (so it works without script), its text beside it. */
export const choiceCard =
  "grid cursor-pointer content-start items-start gap-x-3 rounded-xl border border-slate-300 bg-white px-3.5 py-3 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:ring-2 has-focus-visible:ring-brand-500 has-disabled:cursor-not-allowed has-disabled:bg-slate-50";
export const choiceRadio = "row-span-2 mt-1 size-4 accent-brand-700";
/** The two lines of text beside the radio (and the avatar): a name, then a hint. */
export const choiceName = "col-start-[-2] font-semibold text-brand-950";
export const choiceHint = "col-start-[-2] text-sm text-muted";

/**
 * "Who would you like to meet?": whoever is free first (the default) or one named consultant, with
 * their photo (else initials) and the languages they speak. Plain radios named `consultant`, so the
 * choice works before the island runs and is read from the page when it does. Each radio is named
 * by the name alone and described by the line under it.
 */
export default function ConsultantChoice({ labels, consultants, value, onChange, bookable }: ConsultantChoiceProps) {
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-brand-950">{labels.who}</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        <label className={`${choiceCard} grid-cols-[auto_1fr]`}>
          <input
            type="radio"
            name="consultant"
            value={ANYONE}
            checked={value === ANYONE}
            onChange={() => onChange(ANYONE)}
            aria-labelledby="bk-consultant-any-name"
            aria-describedby="bk-consultant-any-hint"
            className={choiceRadio}
          />
          <span id="bk-consultant-any-name" className={choiceName}>
            {labels.anyone}
          </span>
          <span id="bk-consultant-any-hint" className={choiceHint}>
            {labels.anyoneHint}
          </span>
        </label>
        {consultants.map((c) => {
          const open = bookable(c.id);
          const hint = `bk-consultant-${c.id}-hint`;
          return (
            <label key={c.id} className={`${choiceCard} grid-cols-[auto_auto_1fr]`} data-consultant={c.id}>
              <input
                type="radio"
                name="consultant"
                value={c.id}
                checked={value === c.id}
                disabled={!open}
                onChange={() => onChange(c.id)}
                aria-labelledby={`bk-consultant-${c.id}-name`}
                aria-describedby={hint}
                className={choiceRadio}
              />
              <Avatar consultant={c} />
              <span id={`bk-consultant-${c.id}-name`} className={choiceName}>
                {c.name}
              </span>
              <span id={hint} className={choiceHint}>
                {open ? c.speaks : labels.unavailable}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The consultant's photo, else their initials on the team section's tint; decorative, as the name follows. */
function Avatar({ consultant }: { consultant: ConsultantOption }) {
  if (consultant.photo)
    return (
      <img
        src={consultant.photo.src}
        alt=""
        width="40"
        height="40"
        loading="lazy"
        className="row-span-2 size-10 rounded-full object-cover"
      />
    );
  return (
    <span
      aria-hidden="true"
      className={`row-span-2 flex size-10 items-center justify-center rounded-full bg-gradient-to-br text-sm font-bold text-white ${consultant.tint}`}
    >
      {consultant.initials}
    </span>
  );
}
