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
