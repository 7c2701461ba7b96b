/**
 * Initials for an avatar from a full name: the first letter of the first and of the last name
 * ("Daniel de Vries" → "DV", "Pieter van Dijk" → "PD"). Persian letters are kept apart with a
 * zero-width non-joiner, so "سارا رحیمی" shows the two initials "س‌ر" rather than one joined word.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "";
  const first = [...words[0]][0];
  const last = words.length > 1 ? [...words[words.length - 1]][0] : "";
  if (/[\u0600-\u06FF]/.test(first + last)) return [first, last].filter(Boolean).join("\u200C");
  return (first + last).toLocaleUpperCase();
}

/** The gradients behind a team member's initials, by their place in the team (the team section and the booking dialog). */
export const AVATAR_TINTS = [
  "from-brand-500 to-brand-800",
  "from-teal-600 to-brand-700",
  "from-amber-500 to-brand-700",
];
