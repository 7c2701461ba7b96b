/** The lead desk's answers (functions/admin-replies.ts), as the panel reads them. */

/** One message of a lead's conversation: a reply sent from the panel ('out') or the lead's answer ('in'). */
export interface LeadMessage {
  id: string;
  enquiryId: number;
  direction: "out" | "in";
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string | null;
  inReplyTo: string | null;
  sentBy: string | null;
  createdAt: string;
}

/** GET /api/admin/submissions/{id}/reply[?template=…]. */
export interface ReplyDeskAnswer {
  lead: { id: number; reference: string; language: string; dir: "ltr" | "rtl"; erased: boolean };
  templates: string[];
  /** The chosen template rendered for this lead in its language (absent without ?template). */
  preview?: { template: string; subject: string; text: string; html: string };
  messages: LeadMessage[];
}

/** POST /api/admin/submissions/{id}/reply → 201. */
export interface ReplySentAnswer {
  message: LeadMessage;
}
