/** A team member as the Consultants page shows them: their public profile (src/data/team.json), which the page passes. */
import type { Language } from "#shared/languages.ts";

export interface TeamProfile {
  id: string;
  name: Record<Language, string>;
  role: Record<Language, string>;
  photo: { src: string } | null;
}
