// Small helpers the repositories share when turning rows into API objects.

/** API timestamps are ISO 8601 strings in UTC; drivers hand back Date objects (or strings). */
export function toIso(value: Date | string): string {
  return new Date(value).toISOString();
}

const MAX_SERIAL = 2_147_483_647;

/**
 * True when `id` can name a row of a `serial` column. Anything else cannot exist, so lookups answer
 * "not found" instead of letting PostgreSQL fail with "out of range for type integer".
 */
export function isSerialId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_SERIAL;
}
