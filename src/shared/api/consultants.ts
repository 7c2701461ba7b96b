/** The panel's consultants (GET /api/admin/consultants). */
import type { Language } from "../languages.ts";

/** A consultant as the panel lists them: their team member's name in each language and the languages they speak. */
export interface AdminConsultant {
  id: string;
  name: Record<Language, string>;
  languages: Language[];
  /** Whether they take new meetings. */
  active: boolean;
  /** Whether they are the signed-in account (whose meetings the Meetings page opens on). */
  mine: boolean;
}
