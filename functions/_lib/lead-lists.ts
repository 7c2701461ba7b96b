/** What the lead lists read their filters against (db/enquiries.repository.ts ListContext): the clock, the office rules, who asks. */
import type { ListContext } from "#db/enquiries.repository.ts";
import { now, officeRules } from "#server/office.ts";

/** The context of a list asked for by this admin: "mine" is theirs, "overdue" counts by the office's rules and clock. */
export const leadListContext = (admin: { id: number }): ListContext => ({
  now: now(),
  rules: officeRules(),
  userId: admin.id,
});
