/** Splits text into sentences, keeping their closing punctuation (Latin and Persian). */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?؟]+(?:[.!?؟]+|$)/g) ?? [];
  return parts.map((s) => s.trim()).filter(Boolean);
}

/**
 * Places three emoji in a testimonial: after about a third of its sentences, after about two
 * thirds, and at the end (spec section 2). Short texts get the first two merged where they meet.
 */
export function insertEmojis(text: string, emojis: readonly [string, string, string]): string {
  const sentences = splitSentences(text);
  const n = sentences.length;
  if (n === 0) return emojis.join(" ");
  const first = Math.max(1, Math.round(n / 3));
  const second = Math.max(first, Math.round((2 * n) / 3));
  const out: string[] = [];
  sentences.forEach((sentence, i) => {
    const count = i + 1;
    let piece = sentence;
    if (count === first && first < n) piece += ` ${emojis[0]}`;
    if (count === second && second < n && second !== first) piece += ` ${emojis[1]}`;
    out.push(piece);
  });
  const tail = [first >= n ? emojis[0] : "", second >= n || second === first ? emojis[1] : "", emojis[2]]
    .filter(Boolean)
    .join(" ");
  return `${out.join(" ")} ${tail}`;
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
