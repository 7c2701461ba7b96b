/** The panel's consultants (GET /api/admin/consultants). */
import type { Language } from "../languages.ts";
import type { OpeningHours } from "../office.ts";

/** A consultant as the panel lists them: their team member's name in each language and the languages they speak. */
export interface AdminConsultant {
  id: string;
  name: Record<Language, string>;
  languages: Language[];
  /** Whether they take new meetings. */
  active: boolean;
  /** Whether they are the signed-in account (whose meetings the Meetings page opens on). */
  mine: boolean;
  /** The account they are (GET /api/admin/users names it). */
  userId: number;
  /** Their own weekly hours; null: the office's. */
  hours: OpeningHours[] | null;
}

/** PATCH /api/admin/consultants/{id}: what they are now. */
export interface ConsultantChangeAnswer {
  consultant: string;
  active?: boolean;
  hours?: OpeningHours[] | null;
}
