/**
 * A consultant's name as emails, invites and the panel show it: their team member's name
 * (src/data/team.json) in a language. A consultant whose team member was renamed or removed is
 * shown by their id, so a meeting never loses the person it is with.
 */
import type { Language } from "#shared/languages.ts";
import { fromTeam } from "./team.ts";

const names = fromTeam(
  (team): ReadonlyMap<string, Partial<Record<Language, string>>> =>
    new Map(team.map((member) => [member.id, member.name])),
);

/** Consultant `id`'s name in `lang` (English when that language has none; the id when they have no profile). */
export function consultantName(id: string, lang: Language): string {
  const name = names().get(id);
  return name?.[lang]?.trim() || name?.en?.trim() || id;
}
