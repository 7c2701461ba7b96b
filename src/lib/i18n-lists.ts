import type { TFunction } from "i18next";

/** Items of a numbered group in the locale files ({"1": …, "2": …}) as an ordered array. */
export function listOf<T>(tr: TFunction, key: string): T[] {
  const value = tr(key, { returnObjects: true }) as unknown;
  if (!value || typeof value !== "object") throw new Error(`Translation ${key} is not a group`);
  return Object.entries(value as Record<string, T>)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, item]) => item);
}
