/** Splits text into sentences, keeping their closing punctuation (Latin and Persian). */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?؟]+(?:[.!?؟]+|$)/g) ?? [];
  return parts.map((s) => s.trim()).filter(Boolean);
}

/**
 * Places up to three emoji in a testimonial: after about a third of its sentences, after about two
 * thirds, and at the end. Fewer emoji take the last places (two: two thirds and the
 * end; one: the end). Short texts get the first two merged where they meet.
 */
export function insertEmojis(text: string, given: readonly string[]): string {
  const emojis = [...Array(Math.max(0, 3 - given.length)).fill(""), ...given.slice(0, 3)];
  const sentences = splitSentences(text);
  const n = sentences.length;
  if (n === 0) return emojis.filter(Boolean).join(" ");
  const first = Math.max(1, Math.round(n / 3));
  const second = Math.max(first, Math.round((2 * n) / 3));
  const out: string[] = [];
  sentences.forEach((sentence, i) => {
    const count = i + 1;
    const after: string[] = [];
    if (count === first && first < n) after.push(emojis[0]);
    if (count === second && second < n && second !== first) after.push(emojis[1]);
    out.push([sentence, ...after.filter(Boolean)].join(" "));
  });
  const tail = [first >= n ? emojis[0] : "", second >= n || second === first ? emojis[1] : "", emojis[2]].filter(
    Boolean,
  );
  return [out.join(" "), ...tail].join(" ");
}

export interface StarParts {
  full: number;
  half: number;
  empty: number;
}

/** Stars for a 1–5 rating: whole stars, a half star when the fraction is .5 or more, then empty ones. */
export function starParts(rating: number): StarParts {
  const r = Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
  const full = Math.floor(r);
  const half = r - full >= 0.5 ? 1 : 0;
  return { full, half, empty: 5 - full - half };
}
