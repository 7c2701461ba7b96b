/**
 * The lead desk's replies (admins): GET /api/admin/submissions/{id}/reply answers the lead's
 * messages (sent and received) and, with ?template=<name>, that template rendered for this lead in
 * the lead's language; POST with { subject, text } sends the reply as the staff wrote it, through the
 * outbox: From the site's sender, To the lead, Reply-To the lead's owner (else the office) and the
 * lead's own reply address (so the lead's answer reaches both), In-Reply-To and References the
 * Message-ID of the lead's acknowledgement. Stored on lead_messages, audited as "lead.reply"; a lead
 * still "new" moves to "replied" in the same transaction (audited as "lead.status").
 * 404 for no such lead, 409 for a lead whose person was erased.
 */
import type { Context } from "@netlify/functions";
import { site } from "#config/site.ts";
import { getDb } from "#db/client.ts";
import {
  findReplyLead,
  listLeadMessages,
  markReplied,
  storeOutgoingReply,
  type ReplyLead,
} from "#db/lead-messages.repository.ts";
import type { ReplyDeskAnswer, ReplySentAnswer } from "#shared/api/replies.ts";
import { dirOf, requireLanguage } from "#shared/languages.ts";
import { ROUTES } from "#shared/routes.ts";
import { replySchema } from "#shared/schemas/replies.ts";
import { mailConfig } from "#server/config.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { afterCommitDelivery } from "./_lib/mail/outbox.ts";
import { LEAD_REPLY_KIND, outboxMessageId } from "./_lib/mail/delivery.ts";
import {
  isReplyTemplate,
  leadReplyEmail,
  renderReply,
  replyAddress,
  replyValues,
  REPLY_TEMPLATES,
} from "./_lib/mail/replies.ts";
import { enquiryReference } from "#shared/leads.ts";

const leadId = (req: Request, context: Context): number => {
  const id = context?.params?.id ?? new URL(req.url).pathname.split("/")[4];
  if (!/^\d{1,9}$/.test(id ?? "")) throw new HttpError(404, "Enquiry not found");
  return Number(id);
};

async function lead(req: Request, context: Context): Promise<ReplyLead> {
  const found = await findReplyLead(getDb(), leadId(req, context));
  if (!found) throw new HttpError(404, "Enquiry not found");
  return found;
}

/** Where the lead's answer goes besides the lead desk: the owner's notice address, else the office. */
const ownerAddress = (lead: ReplyLead): string => lead.ownerEmail ?? site.email;

export default route({
  GET: async (req: Request, context: Context) => {
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const found = await lead(req, context);
    const lang = requireLanguage(found.language, `enquiry ${found.id}`);
    const template = new URL(req.url).searchParams.get("template");
    if (template !== null && !isReplyTemplate(template)) throw new HttpError(400, "Unknown template");
    const erased = Boolean(found.anonymisedAt);
    let preview: ReplyDeskAnswer["preview"];
    if (template && !erased) {
      const { subject, text } = renderReply(
        lang,
        template,
        replyValues(found, lang, found.ownerName ?? admin.username),
      );
      preview = { template, subject, text, html: leadReplyEmail(lang, subject, text).html };
    }
    return json<ReplyDeskAnswer>({
      lead: { id: found.id, reference: enquiryReference(found.id), language: lang, dir: dirOf(lang), erased },
      templates: [...REPLY_TEMPLATES],
      ...(preview && { preview }),
      messages: await listLeadMessages(db, found.id),
    });
  },

  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const { subject, text } = validate(replySchema, await readJson(req));
    const found = await lead(req, context);
    if (found.anonymisedAt || !found.email)
      throw new HttpError(409, "This person's data was erased: no reply can be sent");
    const lang = requireLanguage(found.language, `enquiry ${found.id}`);
    const email = leadReplyEmail(lang, subject, text);
    const inReplyTo = found.acknowledgementId ? outboxMessageId(found.acknowledgementId) : null;
    const {
      outboxId,
      message,
      after: moved,
    } = await storeOutgoingReply(
      db,
      {
        enquiryId: found.id,
        from: mailConfig().from,
        sentBy: admin.username,
        email: {
          kind: LEAD_REPLY_KIND,
          enquiryId: found.id,
          to: found.email,
          replyTo: `${ownerAddress(found)}, ${replyAddress(found.id)}`,
          inReplyTo,
          ...email,
        },
      },
      outboxMessageId,
      // A new lead has now been answered: it moves to "replied" with the reply.
      (trx) => markReplied(trx, found.id, admin),
    );
    await audit(db, req, context, admin, "lead.reply", {
      target: String(found.id),
      subject: found.email,
      detail: { reference: enquiryReference(found.id) },
    });
    if (moved) {
      await audit(db, req, context, admin, "lead.status", {
        target: String(found.id),
        detail: { reference: enquiryReference(found.id), from: "new", to: "replied", by: "reply" },
      });
    }
    await afterCommitDelivery(db, [outboxId], context);
    return json<ReplySentAnswer>({ message }, 201);
  },
});

export const config = { path: ROUTES.admin.enquiryReply };
