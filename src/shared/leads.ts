/**
 * The lead desk's contract: every enquiry is a lead with a stage, and the short references (E-00042,
 * M-00017) the emails quote, the panel shows and its search reads back. Used by the API, the
 * repositories, the emails and the panel alike.
 */

/** The stages in board order: the way forward, then lost. */
export const LEAD_STAGES = ["new", "replied", "meeting", "proposal", "client", "lost"] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

/** The stages a lead is still being worked in (not won, not lost). */
export const OPEN_STAGES: readonly LeadStage[] = ["new", "replied", "meeting", "proposal"];

export const isLeadStage = (value: unknown): value is LeadStage =>
  typeof value === "string" && (LEAD_STAGES as readonly string[]).includes(value);

/**
 * The moves a lead may make from `from`: forward to any later stage (a visitor may book a meeting
 * before any reply), back one step (a mistake undone; replied → new stops the answer clock again),
 * lost from any open stage, and a lost lead reopened as new or replied.
 */
export function allowedMoves(from: LeadStage): LeadStage[] {
  if (from === "lost") return ["new", "replied"];
  const at = LEAD_STAGES.indexOf(from);
  const forward = LEAD_STAGES.slice(at + 1, LEAD_STAGES.indexOf("client") + 1);
  const back = at > 0 ? [LEAD_STAGES[at - 1]] : [];
  const lost: LeadStage[] = from === "client" ? [] : ["lost"];
  return [...back, ...forward, ...lost];
}

export const canMove = (from: LeadStage, to: LeadStage): boolean => allowedMoves(from).includes(to);

/** The largest value a won lead may carry, in euro cents (ten million euros). */
export const MAX_VALUE_CENTS = 1_000_000_000;
/**
 * Euro cents as a person types a sum: whole euros or with cents ("4500", "4500.50", "4500,50",
 * "4500٫50"), grouped or not ("4 500", "4,500", "4.500,50", and "۴٬۵۰۰" as the Persian panel itself
 * writes it), in Latin, Persian or Arabic digits. Undefined for nothing typed; null for anything else
 * or more than MAX_VALUE_CENTS. A mark before exactly three digits groups, before one or two it is
 * the decimal mark; one mark cannot be both.
 */
export function parseEuros(text: string): number | null | undefined {
  const typed = text
    .trim()
    .replace(/[۰-۹٠-٩]/g, (d) => String((d.charCodeAt(0) - 0x30) % 16))
    .replace(/^€\s*|\s*(€|eur|euro)$/i, "");
  if (!typed) return undefined;
  const match = /^(\d{1,3}(?:([\s\u00a0\u202f٬,.'’])\d{3})(?:\2\d{3})*|\d+)(?:([.,٫])(\d{1,2}))?$/u.exec(typed);
  // One mark cannot both group and separate the cents ("4,500,5").
  if (!match || (match[2] && match[2] === match[3])) return null;
  const euros = Number(match[1].replace(/\D/g, ""));
  const cents = euros * 100 + Number((match[4] ?? "0").padEnd(2, "0"));
  return cents <= MAX_VALUE_CENTS ? cents : null;
}

/** The longest label of a lost reason. */
export const LOST_REASON_MAX_LENGTH = 80;

const pad = (id: number) => String(id).padStart(5, "0");
/** Our short reference for an enquiry, e.g. E-00042. */
export const enquiryReference = (id: number) => `E-${pad(id)}`;
/** Our short reference for a meeting, e.g. M-00017. */
export const meetingReference = (id: number) => `M-${pad(id)}`;

/**
 * What a typed reference names: "E-00002", "e-2", "E2", " m-00001 " (any case, zeros optional, the
 * dash optional, Persian or Arabic digits too); null for anything else.
 */
export function parseReference(text: string): { kind: "enquiry" | "meeting"; id: number } | null {
  const latin = text.trim().replace(/[۰-۹٠-٩]/g, (d) => String((d.charCodeAt(0) - 0x30) % 16));
  const match = /^([em])\s*[-‐–]?\s*(\d{1,9})$/i.exec(latin);
  if (!match) return null;
  const id = Number(match[2]);
  if (id < 1 || id > 2_147_483_647) return null;
  return { kind: match[1].toLowerCase() === "e" ? "enquiry" : "meeting", id };
}

/**
 * The panel's page of the person behind a record: their timeline, opened by the record's reference
 * (never by their address, which would end up in logs). The staff's notices and the cards link here.
 */
export const personPath = (reference: string) => `/admin/person?${new URLSearchParams({ ref: reference })}`;
