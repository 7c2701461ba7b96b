/** What the lead lists read their filters against (db/enquiries.repository.ts ListContext): the clock, the office rules, who asks. */
import type { Kysely } from "kysely";
import { readAvailability } from "#db/availability.repository.ts";
import { filtersNeedRules, type ListContext } from "#db/enquiries.repository.ts";
import type { Database } from "#db/types.ts";
import type { EnquiryFilters } from "#shared/admin-lists.ts";
import { now, officeRules } from "#server/office.ts";

/**
 * The office's rules as the admin set them (hours, closures, holidays): what "overdue" counts by in
 * the lists, the figures, the Due panel and the digest alike.
 */
export const storedOfficeRules = async (db: Kysely<Database>) => officeRules(await readAvailability(db));

/**
 * The context of a list asked for by this admin: "mine" is theirs, "overdue" counts by the office's
 * stored rules and clock. The rules are read only for the filters that count by them: the list as it
 * opens, and every other filter, costs no read of them.
 */
export const leadListContext = async (
  db: Kysely<Database>,
  admin: { id: number },
  filters: EnquiryFilters,
): Promise<ListContext> => ({
  now: now(),
  ...(filtersNeedRules(filters) && { rules: await storedOfficeRules(db) }),
  userId: admin.id,
});
