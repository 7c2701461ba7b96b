import type { MeetingPlaceKind } from "#shared/office.ts";
import { PLACES } from "#src/lib/consultant-choice.ts";
import { choiceCard, choiceHint, choiceName, choiceRadio } from "./ConsultantChoice";

export interface PlaceChoiceLabels {
  how: string;
  place: Record<MeetingPlaceKind, string>;
  /** Under each place: the office's address, how the video link comes, which number we call. */
  placeHint: Record<MeetingPlaceKind, string>;
}

export interface PlaceChoiceProps {
  labels: PlaceChoiceLabels;
  value: MeetingPlaceKind;
  onChange: (place: MeetingPlaceKind) => void;
}

/**
 * "How would you like to meet?": at the office (its address), by video (the link comes by email) or
 * by phone (we call the number given). Plain radios named `place`, like the consultant choice.
 */
export default function PlaceChoice({ labels, value, onChange }: PlaceChoiceProps) {
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-brand-950">{labels.how}</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-3">
        {PLACES.map((kind) => (
          <label key={kind} className={`${choiceCard} grid-cols-[auto_1fr]`}>
            <input
              type="radio"
              name="place"
              value={kind}
              checked={value === kind}
              onChange={() => onChange(kind)}
              aria-labelledby={`bk-place-${kind}-name`}
              aria-describedby={`bk-place-${kind}-hint`}
              className={choiceRadio}
            />
            <span id={`bk-place-${kind}-name`} className={choiceName}>
              {labels.place[kind]}
            </span>
            <span id={`bk-place-${kind}-hint`} className={choiceHint}>
              {labels.placeHint[kind]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
