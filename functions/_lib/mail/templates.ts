/**
 * The emails the site sends, as fixed templates: the company hears of every enquiry and booking
 * (in English, with every field), the visitor gets an acknowledgement and later news of their
 * meeting in their own language (Persian right to left). The visitor's words are the `mail` group
 * of their locale file, so a new language brings its emails with it; the company's emails are
 * English and written here.
 *
 * Rules that keep a visitor from using these emails against anyone:
 * - subjects are fixed text plus our own reference; no visitor value ever reaches a header
 *   (the outbox sets To and Reply-To from validated addresses only);
 * - every visitor value is HTML-escaped, and never made a link: the only links are our own;
 *   the company email also breaks up the visitor's text (`inert`) so mail clients do not turn
 *   addresses or URLs in it into links;
 * - the visitor's own emails echo none of the free text they typed (so the form cannot be used to
 *   mail arbitrary text to a third party), only their name when it looks like a name.
 */
import { site } from "#config/site.ts";
import { plainT, serviceNames } from "#src/i18n/plain.ts";
import { resources } from "#src/i18n/locales/index.ts";
import { formatDate, formatNumber, formatTime } from "#shared/format.ts";
import type { Enquiry } from "#shared/api/enquiries.ts";
import type { Meeting, MeetingLocation } from "#shared/api/meetings.ts";
import { dirOf, englishLanguageName, LANGUAGE_INFO, requireLanguage, type Language } from "#shared/languages.ts";
import { officeNow, toMinutes, toTime } from "#shared/dates.ts";
import { MEETING_MINUTES, OFFICE_TIME_ZONE } from "#shared/office.ts";
import { isServiceId } from "#shared/services.ts";
import { enquiryReference, meetingReference, personPath } from "#shared/leads.ts";
import type { LeadSource } from "#shared/sources.ts";
import { ADMIN_LIST_PATHS } from "#shared/admin-lists.ts";
import { leadLink, type DueLead } from "#shared/follow-ups.ts";
import { consultantName } from "../booking/consultant-names.ts";

export interface Email {
  subject: string;
  text: string;
  html: string;
}

/** The fields of an enquiry the emails show. */
export type EnquiryDetails = Pick<
  Enquiry,
  "id" | "firstName" | "lastName" | "email" | "company" | "service" | "message" | "language" | "createdAt"
> & {
  /** Where it came from (the company's email names it); absent or null when nothing is known. */
  source?: LeadSource | null;
};

/** The fields of a meeting the emails show; date and time are office-local yyyy-MM-dd and HH:mm. */
export type MeetingDetails = Pick<
  Meeting,
  "id" | "name" | "email" | "phone" | "date" | "time" | "language" | "createdAt"
> & {
  /** Where it happens (absent or null: booked before meeting places, and then not mentioned). */
  location?: MeetingLocation | null;
  /** Where it came from (the company's email names it); absent or null when nothing is known. */
  source?: LeadSource | null;
  /** Whom it is with (a consultant's id); absent: not mentioned. */
  consultant?: string;
};

/** What a visitor's meeting email announces. */
export type MeetingStage =
  | "requested"
  | "confirmed"
  | "pending"
  | "moved"
  | "movedByUs"
  | "reassigned"
  | "cancelledByUs"
  | "cancelledByYou"
  | "reminder";

const STAGES: readonly MeetingStage[] = [
  "requested",
  "confirmed",
  "pending",
  "moved",
  "movedByUs",
  "reassigned",
  "cancelledByUs",
  "cancelledByYou",
  "reminder",
];

/**
 * The panel's page of the person behind the record: their timeline (every enquiry, meeting, email
 * and note of the address), opened by the reference, so no address is put in a URL.
 */
const personUrl = (reference: string) => `${site.url}${personPath(reference)}`;

/** The "How did you hear about us?" choices in English, by id (the locale file's labels). */
const HEARD_LABELS: Record<string, string> = resources.en.contact.form.heardOptions;

/**
 * Where a lead came from, as the company's email lists it: the campaign's source (else the
 * referring site, else "direct"), campaign, medium, first page, page of sending and the visitor's
 * own answer. Every value passed the allowlist when stored; they are still the visitor's (inert).
 */
function sourceFields(source: LeadSource | null | undefined): Field[] {
  if (!source) return [["Source", "Not recorded", "ours"]];
  const fields: Field[] = [
    source.utmSource || source.referrer
      ? ["Source", (source.utmSource ?? source.referrer)!]
      : ["Source", "Direct", "ours"],
  ];
  if (source.utmCampaign) fields.push(["Campaign", source.utmCampaign]);
  if (source.utmMedium) fields.push(["Medium", source.utmMedium]);
  if (source.landing) fields.push(["First page", source.landing]);
  if (source.page) fields.push(["Sent from", source.page]);
  if (source.heard) fields.push(["Heard of us via", HEARD_LABELS[source.heard] ?? source.heard, "ours"]);
  return fields;
}

/** A catalogue service's name in a language; null for a value outside the catalogue (shown as the visitor typed it). */
const serviceName = (value: string, lang: Language): string | null =>
  isServiceId(value) ? serviceNames(lang)[value] : null;

/** A language name for the company's (English) emails: "Persian (fa)". */
const languageLabel = (lang: Language) => `${englishLanguageName(lang)} (${lang})`;

/** `when` is the meeting's day and start time, as `meetingWhen(…).subject` gives it. */
type StageCopy = { subject: (ref: string, when: string) => string; intro: string; status: string; invite: string };

interface Copy {
  locale: string;
  /** Text around the visitor's name, and the greeting without one. */
  greeting: { named: [string, string]; anonymous: string };
  signOff: string;
  team: string;
  reference: string;
  /** Text around our email address. */
  questions: [string, string];
  enquiry: { subject: (ref: string) => string; intro: string; service: string; quote: string };
  meeting: Record<MeetingStage, StageCopy> & {
    /** Text before the manage link, and the link's words. */
    manage: { intro: string; link: string };
    when: string;
    officeTime: string;
    summary: string;
    description: (ref: string) => string;
    where: string;
    /** The label before the consultant's name. */
    with: string;
    /** The place in words: the office's address, the phone call to the visitor's number, or the video link. */
    place: (location: MeetingLocation, phone: string) => string;
    /** The invite's LOCATION for a phone call (the others are the address and the link). */
    phoneLocation: string;
  };
}

// Stands for a value that goes between two pieces of copy, so each piece is escaped on its own.
const GAP = "\u0000";
const around = (text: string): [string, string] => {
  const [before, after = ""] = text.split(GAP);
  return [before, after];
};

/** The visitor's emails in their language: the `mail` group of its locale file. */
function copyOf(lang: Language): Copy {
  // Emails are not laid out by a browser: no soft hyphens in long Dutch words.
  const tr = plainT(lang);
  const minutes = formatNumber(lang, MEETING_MINUTES);
  const stage = (name: MeetingStage): StageCopy => ({
    subject: (ref, when) => tr(`mail.meeting.${name}.subject`, { ref, when }),
    intro: tr(`mail.meeting.${name}.intro`, { minutes }),
    status: tr(`mail.meeting.${name}.status`),
    invite: tr(`mail.meeting.${name}.invite`),
  });
  return {
    locale: LANGUAGE_INFO[lang].intl,
    greeting: { named: around(tr("mail.greeting.named", { name: GAP })), anonymous: tr("mail.greeting.anonymous") },
    signOff: tr("mail.signOff"),
    team: tr("mail.team"),
    reference: tr("mail.reference"),
    questions: around(tr("mail.questions", { email: GAP })),
    enquiry: {
      subject: (ref) => tr("mail.enquiry.subject", { ref }),
      intro: tr("mail.enquiry.intro"),
      service: tr("mail.enquiry.service"),
      quote: tr("mail.enquiry.quote"),
    },
    meeting: {
      ...(Object.fromEntries(STAGES.map((name) => [name, stage(name)])) as Record<MeetingStage, StageCopy>),
      manage: { intro: tr("mail.meeting.manage.intro"), link: tr("mail.meeting.manage.link") },
      when: tr("mail.meeting.when"),
      officeTime: tr("mail.meeting.officeTime"),
      summary: tr("mail.meeting.summary"),
      description: (ref) => tr("mail.meeting.description", { ref, minutes }),
      where: tr("mail.meeting.where"),
      with: tr("mail.meeting.with"),
      place: (location, phone) =>
        location.kind === "phone"
          ? tr("mail.meeting.place.phone", { phone })
          : location.kind === "video"
            ? tr("mail.meeting.place.video", { url: location.detail ?? "" })
            : tr("mail.meeting.place.office", { address: location.detail ?? "" }),
      phoneLocation: tr("mail.meeting.place.phoneLocation"),
    },
  };
}

/** The company's notification of a new enquiry: every field, in English. */
export function companyEnquiryEmail(e: EnquiryDetails): Email {
  const ref = enquiryReference(e.id);
  const lang = requireLanguage(e.language, `enquiry ${ref}`);
  const service = serviceName(e.service, "en");
  const fields: Field[] = [
    ["Reference", ref, "ours"],
    ["Received", `${officeDateTime(e.createdAt)} (Amsterdam time)`, "ours"],
    ["First name", e.firstName],
    ["Last name", e.lastName],
    ["Email", e.email],
    ["Company", e.company ?? "(none)", e.company ? "visitor" : "ours"],
    ["Service", service ? `${service} (${e.service})` : e.service, service ? "ours" : "visitor"],
    ["Language", languageLabel(lang), "ours"],
    ...sourceFields(e.source),
  ];
  return companyEmail({
    subject: `New enquiry ${ref}${service ? `: ${service}` : ""} (${englishLanguageName(lang)})`,
    heading: "New enquiry from the website",
    fields,
    message: e.message,
    action: { ...ANSWER, label: "Open this enquiry", url: personUrl(ref) },
  });
}

/** The company's notification of a new booking: every field, in English. */
export function companyMeetingEmail(m: MeetingDetails): Email {
  const ref = meetingReference(m.id);
  const lang = requireLanguage(m.language, `meeting ${ref}`);
  const when = meetingWhen("en", m.date, m.time);
  return companyEmail({
    subject: `New meeting request ${ref}: ${when.short} (${englishLanguageName(lang)})`,
    heading: "New meeting request from the website",
    fields: [
      ["Reference", ref, "ours"],
      ["When", `${when.long} (Amsterdam time), ${MEETING_MINUTES} minutes`, "ours"],
      ["Status", "Pending: confirm it in the dashboard", "ours"],
      ...(m.consultant ? ([["Consultant", consultantName(m.consultant, "en"), "ours"]] satisfies Field[]) : []),
      ...(placeForCompany(m.location, m.phone)
        ? ([["Where", placeForCompany(m.location, m.phone)!, "ours"]] satisfies Field[])
        : []),
      ["Name", m.name],
      ["Email", m.email],
      ["Phone", m.phone],
      ["Language", languageLabel(lang), "ours"],
      ["Booked", `${officeDateTime(m.createdAt)} (Amsterdam time)`, "ours"],
      ...sourceFields(m.source),
    ],
    action: { ...ANSWER, label: "Open this meeting", url: personUrl(ref) },
  });
}

/** The company's news of a change the visitor made from their manage link: moved (with the old time) or cancelled. */
export function companyMeetingChangeEmail(
  m: MeetingDetails,
  change: { moved: { date: string; time: string } } | "cancelled",
): Email {
  const ref = meetingReference(m.id);
  const lang = requireLanguage(m.language, `meeting ${ref}`);
  const when = meetingWhen("en", m.date, m.time);
  const moved = change === "cancelled" ? null : meetingWhen("en", change.moved.date, change.moved.time);
  return companyEmail({
    subject: moved
      ? `Meeting ${ref} moved by the visitor: ${when.short} (was ${moved.short})`
      : `Meeting ${ref} cancelled by the visitor: ${when.short}`,
    heading: moved ? "A visitor moved their meeting" : "A visitor cancelled their meeting",
    fields: [
      ["Reference", ref, "ours"],
      ...(moved
        ? ([
            ["New time", `${when.long} (Amsterdam time)`, "ours"],
            ["Was", `${moved.long} (Amsterdam time)`, "ours"],
          ] satisfies Field[])
        : ([
            ["When", `${when.long} (Amsterdam time)`, "ours"],
            ["Status", "Cancelled by the visitor; the slot is free again", "ours"],
          ] satisfies Field[])),
      ["Name", m.name],
      ["Email", m.email],
      ["Phone", m.phone],
      ["Language", languageLabel(lang), "ours"],
    ],
  });
}

/** What staff did to a meeting, as its consultants are told: handed over (to or from them) or moved. */
export type StaffChange =
  | { kind: "handedTo" | "handedFrom"; by: string; from: string }
  | { kind: "moved"; by: string; was: { date: string; time: string } };

/**
 * A consultant's news of what staff did to their meeting (functions/admin-meeting-changes.ts), in
 * English like the company's emails: a meeting handed to them, one of theirs handed to a
 * colleague, or one of theirs moved.
 */
export function consultantMeetingEmail(m: MeetingDetails & { consultant: string }, change: StaffChange): Email {
  const ref = meetingReference(m.id);
  const lang = requireLanguage(m.language, `meeting ${ref}`);
  const when = meetingWhen("en", m.date, m.time);
  const name = consultantName(m.consultant, "en");
  const was = change.kind === "moved" ? meetingWhen("en", change.was.date, change.was.time) : null;
  const [subject, heading] =
    change.kind === "handedTo"
      ? [`Meeting ${ref} handed to you: ${when.short}`, "A colleague handed you a meeting"]
      : change.kind === "handedFrom"
        ? [`Meeting ${ref} handed to ${name}: ${when.short}`, "Your meeting is now with a colleague"]
        : [`Meeting ${ref} moved: ${when.short} (was ${was!.short})`, "Your meeting was moved for the visitor"];
  const place = placeForCompany(m.location, m.phone);
  return companyEmail({
    subject,
    heading,
    fields: [
      ["Reference", ref, "ours"],
      ["When", `${when.long} (Amsterdam time), ${MEETING_MINUTES} minutes`, "ours"],
      ...(was ? ([["Was", `${was.long} (Amsterdam time)`, "ours"]] satisfies Field[]) : []),
      ["Consultant", name, "ours"],
      ...(change.kind !== "moved" ? ([["Was with", consultantName(change.from, "en"), "ours"]] satisfies Field[]) : []),
      ...(place ? ([["Where", place, "ours"]] satisfies Field[]) : []),
      ["Changed by", change.by, "ours"],
      ["Name", m.name],
      ["Email", m.email],
      ["Phone", m.phone],
      ["Language", languageLabel(lang), "ours"],
    ],
    action: { ...ANSWER, label: "Open this meeting", url: personUrl(ref) },
  });
}

/** The visitor's acknowledgement of their enquiry, in their language. */
export function visitorEnquiryEmail(e: EnquiryDetails): Email {
  const ref = enquiryReference(e.id);
  const lang = requireLanguage(e.language, `enquiry ${ref}`);
  const copy = copyOf(lang);
  const service = serviceName(e.service, lang);
  const facts: [string, string][] = [[copy.reference, ref]];
  if (service) facts.push([copy.enquiry.service, service]);
  return visitorEmail(lang, {
    subject: copy.enquiry.subject(ref),
    name: displayName(e.firstName),
    paragraphs: [copy.enquiry.intro],
    facts,
    after: [copy.enquiry.quote],
  });
}

/**
 * The visitor's email about their meeting (booked, confirmed, back to pending, moved, cancelled, or
 * the reminder), in their language; `manageUrl` adds the link to move or cancel it.
 */
export function visitorMeetingEmail(m: MeetingDetails, stage: MeetingStage, manageUrl?: string): Email {
  const ref = meetingReference(m.id);
  const lang = requireLanguage(m.language, `meeting ${ref}`);
  const copy = copyOf(lang);
  const stageCopy = copy.meeting[stage];
  const when = meetingWhen(lang, m.date, m.time);
  // A cancelled meeting happens nowhere: its emails leave the place out.
  const place = m.location && !stage.startsWith("cancelled") ? m.location : null;
  return visitorEmail(lang, {
    subject: stageCopy.subject(ref, when.subject),
    name: displayName(m.name),
    paragraphs: [stageCopy.intro],
    facts: [
      [copy.meeting.when, `${when.long} (${copy.meeting.officeTime})`],
      ...(m.consultant ? [[copy.meeting.with, consultantName(m.consultant, lang)] as Fact] : []),
      ...(place
        ? [
            [
              copy.meeting.where,
              copy.meeting.place(place, m.phone),
              place.kind === "video" ? (place.detail ?? undefined) : undefined,
            ] as Fact,
          ]
        : []),
      [copy.reference, ref],
    ],
    after: [stageCopy.status, stageCopy.invite],
    link: manageUrl ? { ...copy.meeting.manage, url: manageUrl } : undefined,
  });
}

/**
 * SUMMARY, DESCRIPTION, LOCATION, URL and the organizer's name of the meeting's calendar invite, in
 * the visitor's language: the consultant and the place are in the description too, the consultant
 * is the organizer (on behalf of the brand), and a video link is the invite's URL.
 */
export function inviteText(m: Pick<MeetingDetails, "id" | "language" | "phone" | "location" | "consultant">): {
  summary: string;
  description: string;
  organizerName: string;
  location?: string;
  url?: string;
} {
  const ref = meetingReference(m.id);
  const lang = requireLanguage(m.language, `meeting ${ref}`);
  const copy = copyOf(lang).meeting;
  const name = m.consultant ? consultantName(m.consultant, lang) : null;
  const place = m.location;
  const lines = [
    copy.description(ref),
    ...(name ? [`${copy.with}: ${name}`] : []),
    ...(place ? [`${copy.where}: ${copy.place(place, m.phone)}`] : []),
  ];
  return {
    summary: copy.summary,
    description: lines.join("\n"),
    organizerName: name ? `${name} (${site.name})` : site.name,
    ...(place && {
      location: place.kind === "phone" ? copy.phoneLocation : (place.detail ?? undefined),
      url: place.kind === "video" ? (place.detail ?? undefined) : undefined,
    }),
  };
}

/** The place in the company's (English) emails. */
function placeForCompany(location: MeetingLocation | null | undefined, phone: string): string | null {
  if (!location) return null;
  if (location.kind === "phone") return `Phone call: call the visitor on ${phone}`;
  if (location.kind === "video") return `Video call: ${location.detail ?? ""}`;
  return `At the office: ${location.detail ?? ""}`;
}

/** The links a newsletter email carries: where to confirm (a sign-up's first email) and where to unsubscribe. */
export interface NewsletterLinks {
  confirmUrl?: string;
  unsubscribeUrl: string;
}

function newsletterUnsubscribe(lang: Language, url: string) {
  const tr = plainT(lang);
  return { text: tr("mail.newsletter.unsubscribeText"), label: tr("mail.newsletter.unsubscribeLink"), url };
}

/** The email that asks a new subscriber to confirm their address (double opt-in), in their language. */
export function newsletterConfirmEmail(lang: Language, links: Required<NewsletterLinks>, days: number): Email {
  const tr = plainT(lang);
  return visitorEmail(lang, {
    subject: tr("mail.newsletter.confirm.subject"),
    name: null,
    paragraphs: [tr("mail.newsletter.confirm.intro")],
    action: { label: tr("mail.newsletter.confirm.button"), url: links.confirmUrl },
    facts: [],
    after: [tr("mail.newsletter.confirm.expiry", { days: formatNumber(lang, days) })],
    unsubscribe: newsletterUnsubscribe(lang, links.unsubscribeUrl),
  });
}

/** The first newsletter email, once the address is confirmed, in the subscriber's language. */
export function newsletterWelcomeEmail(lang: Language, links: NewsletterLinks): Email {
  const tr = plainT(lang);
  return visitorEmail(lang, {
    subject: tr("mail.newsletter.welcome.subject"),
    name: null,
    paragraphs: [tr("mail.newsletter.welcome.intro")],
    facts: [],
    after: [tr("mail.newsletter.welcome.after")],
    unsubscribe: newsletterUnsubscribe(lang, links.unsubscribeUrl),
  });
}

/** What a security notice to an account's owner is about. */
export type SecurityNotice =
  "factorAdded" | "factorRemoved" | "newDevice" | "newNetwork" | "roleChanged" | "passwordChanged" | "emailChanged";

/**
 * A notice to an account's owner (their address, their panel's language): a second factor added or
 * removed, a sign-in from a device or a network not seen before, their password or notice address
 * changed (the old address hears of the latter), or their role changed by an admin, with what,
 * where from and when, and what to do if it was not them (or not expected). Every value is ours (a factor's kind, a device family, a network prefix).
 */
export function securityNoticeEmail(
  lang: Language,
  notice: SecurityNotice,
  details: {
    username: string;
    factor?: "totp" | "passkey";
    role?: "admin" | "editor";
    device?: string;
    place?: string;
    at: Date;
  },
): Email {
  const tr = plainT(lang);
  const subject = tr(`mail.security.${notice}.subject`);
  const when = `${formatDate(lang, details.at.toISOString().slice(0, 10))}, ${formatTime(lang, details.at.toISOString().slice(11, 16))} UTC`;
  const facts: [string, string][] = [
    [tr("mail.security.account"), details.username],
    ...(details.factor
      ? [[tr("mail.security.factor"), tr(`mail.security.factors.${details.factor}`)] as [string, string]]
      : []),
    ...(details.role
      ? [[tr("mail.security.role"), tr(`mail.security.roles.${details.role}`)] as [string, string]]
      : []),
    ...(details.device ? [[tr("mail.security.device"), details.device] as [string, string]] : []),
    ...(details.place ? [[tr("mail.security.place"), details.place] as [string, string]] : []),
    [tr("mail.security.when"), when],
  ];
  const paragraphs = [tr(`mail.security.${notice}.intro`), tr("mail.security.notYou")];
  const url = `${site.url}/admin/login`;
  const text = [...paragraphs.slice(0, 1), "", ...facts.map(([l, v]) => `${l}: ${v}`), "", paragraphs[1], url].join(
    "\n",
  );
  const body = [
    `<h1 style="${H1}">${escapeHtml(subject)}</h1>`,
    `<p style="${P}">${escapeHtml(paragraphs[0])}</p>`,
    `<table role="presentation" style="border-collapse:collapse;width:100%">${facts
      .map(
        ([l, v]) =>
          `<tr><th style="${TH}">${escapeHtml(l)}</th><td style="${TD}"><bdi>${escapeHtml(v)}</bdi></td></tr>`,
      )
      .join("")}</table>`,
    `<p style="${P}">${escapeHtml(paragraphs[1])}<br><a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(url)}</a></p>`,
  ].join("\n");
  return { subject, text, html: page(lang, subject, body) };
}

/**
 * An invitation to the admin panel, in the language the inviting admin chose: who invited whom, as
 * what, the single-use link that lets the invitee set their own password, and until when it works.
 */
export function invitationEmail(
  lang: Language,
  details: { username: string; role: "admin" | "editor"; inviter: string; url: string; expiresAt: Date },
): Email {
  const tr = plainT(lang);
  const subject = tr("mail.invitation.subject");
  const until = `${formatDate(lang, details.expiresAt.toISOString().slice(0, 10))}, ${formatTime(lang, details.expiresAt.toISOString().slice(11, 16))} UTC`;
  const facts: [string, string][] = [
    [tr("mail.security.account"), details.username],
    [tr("mail.security.role"), tr(`mail.security.roles.${details.role}`)],
    [tr("mail.invitation.until"), until],
  ];
  const intro = tr("mail.invitation.intro", { inviter: details.inviter });
  const action = tr("mail.invitation.button");
  const after = tr("mail.invitation.after");
  const text = [intro, "", `${action}:`, details.url, "", ...facts.map(([l, v]) => `${l}: ${v}`), "", after].join("\n");
  const body = [
    `<h1 style="${H1}">${escapeHtml(subject)}</h1>`,
    `<p style="${P}">${escapeHtml(intro)}</p>`,
    `<p style="${P}"><a href="${escapeHtml(details.url)}" style="${BUTTON}">${escapeHtml(action)}</a></p>`,
    `<table role="presentation" style="border-collapse:collapse;width:100%">${facts
      .map(
        ([l, v]) =>
          `<tr><th style="${TH}">${escapeHtml(l)}</th><td style="${TD}"><bdi>${escapeHtml(v)}</bdi></td></tr>`,
      )
      .join("")}</table>`,
    `<p style="${P}">${escapeHtml(after)}</p>`,
  ].join("\n");
  return { subject, text, html: page(lang, subject, body) };
}

/**
 * An owner's morning digest (functions/_lib/mail/digest.ts), in their panel's language: each lead
 * due for them today, by reference and name, why it is due (its follow-up date has come, its
 * answer is overdue) and a link to it. A lead's name is the visitor's own text: escaped and inert.
 */
export function dueDigestEmail(lang: Language, details: { username: string; today: string; leads: DueLead[] }): Email {
  const tr = plainT(lang);
  const today = formatDate(lang, details.today);
  const subject = tr("mail.digest.subject", { date: today, count: details.leads.length });
  const intro = tr("mail.digest.intro", { name: details.username, count: details.leads.length });
  const why = (lead: DueLead) =>
    [
      lead.reasons.includes("followUp") && lead.followUpOn
        ? tr("mail.digest.followUp", { date: formatDate(lang, lead.followUpOn, "short") })
        : "",
      lead.reasons.includes("overdue") && lead.answerDueBy
        ? tr("mail.digest.overdue", { date: formatDate(lang, lead.answerDueBy, "short") })
        : "",
    ]
      .filter(Boolean)
      .join(" · ");
  const items = details.leads.map((lead) => ({
    title: `${lead.reference} ${lead.name.replace(/\s+/g, " ").trim()}`.trim(),
    why: why(lead),
    url: `${site.url}${leadLink(lead.reference)}`,
  }));
  const dashboard = `${site.url}${ADMIN_LIST_PATHS.enquiries}`;
  const after = tr("mail.digest.why");
  const text = [
    intro,
    "",
    ...items.flatMap((i) => [i.title, i.why, i.url, ""]),
    `${tr("mail.digest.dashboard")}: ${dashboard}`,
    "",
    after,
  ].join("\n");
  const body = [
    `<h1 style="${H1}">${escapeHtml(subject)}</h1>`,
    `<p style="${P}">${escapeHtml(intro)}</p>`,
    `<ul style="margin:0 0 16px;padding:0;list-style:none">${items
      .map(
        (i) =>
          `<li style="margin:0 0 12px"><a href="${escapeHtml(i.url)}" style="color:#1d4ed8;font-weight:600"><bdi>${inert(i.title)}</bdi></a><br><span style="color:#4b5563">${escapeHtml(i.why)}</span></li>`,
      )
      .join("")}</ul>`,
    `<p style="${P}"><a href="${escapeHtml(dashboard)}" style="${BUTTON}">${escapeHtml(tr("mail.digest.dashboard"))}</a></p>`,
    `<p style="${SMALL}">${escapeHtml(after)}</p>`,
  ].join("\n");
  return { subject, text, html: page(lang, subject, body) };
}

// ——— Building blocks ———

/** A label, a value, and whose value it is: visitor values are escaped and kept from becoming links. */
type Field = [label: string, value: string, source?: "visitor" | "ours"];

/** The closing line of the company's emails about a visitor. */
const ANSWER = { text: "Reply to this email to answer the visitor." } as const;

function companyEmail({
  subject,
  heading,
  fields: given,
  message,
  action = { ...ANSWER, label: "Open the admin panel", url: `${site.url}${ADMIN_LIST_PATHS.enquiries}` },
}: {
  subject: string;
  heading: string;
  fields: Field[];
  message?: string;
  /** The closing line and link (by default: reply to the visitor, open the dashboard). */
  action?: { text: string; label: string; url: string };
}): Email {
  // Names, company and the like are one line each: a line break typed into one is shown as a space.
  const fields = given.map(([label, value, source]): Field => [label, value.replace(/\s+/g, " ").trim(), source]);
  const text = [
    `${heading}.`,
    "",
    ...fields.map(([label, value]) => `${label}: ${value}`),
    ...(message === undefined ? [] : ["", "Message:", message]),
    "",
    action.text,
    `${action.label}: ${action.url}`,
  ].join("\n");

  const rows = fields
    .map(
      ([label, value, source = "visitor"]) =>
        `<tr><th style="${TH}">${escapeHtml(label)}</th><td style="${TD}" dir="auto">${source === "visitor" ? inert(value) : escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const body = [
    `<h1 style="${H1}">${escapeHtml(heading)}</h1>`,
    `<table role="presentation" style="border-collapse:collapse;width:100%">${rows}</table>`,
    message === undefined
      ? ""
      : `<h2 style="${H2}">Message</h2><div dir="auto" style="white-space:pre-wrap;${BOX}">${inert(message)}</div>`,
    `<p style="${P}">${escapeHtml(action.text)}</p>`,
    `<p style="${P}"><a href="${escapeHtml(action.url)}" style="color:#1d4ed8">${escapeHtml(action.label)}</a></p>`,
  ].join("\n");
  return { subject, text, html: page("en", subject, body) };
}

/**
 * The company's warning that a connected calendar has been failing for half of CALENDAR_STALE_HOURS:
 * at `staleAt` it counts as busy all day and bookings stop (functions/_lib/calendars/refresh.ts).
 */
export function companyCalendarWarningEmail(feed: {
  name: string;
  failingSince: Date;
  lastError: string | null;
  staleAt: Date;
}): Email {
  const at = (instant: Date) => {
    const { date, time } = officeNow(instant, OFFICE_TIME_ZONE);
    return `${formatDate("en", date)}, ${time} (Amsterdam time)`;
  };
  return companyEmail({
    subject: `Connected calendar "${feed.name}" failing: bookings stop at ${at(feed.staleAt)}`,
    heading: "A connected calendar cannot be read",
    fields: [
      ["Calendar", feed.name],
      ["Failing since", at(feed.failingSince), "ours"],
      ["Why", feed.lastError ?? "unknown", "ours"],
      ["Bookings stop", `${at(feed.staleAt)}, unless it can be read again or is removed`, "ours"],
    ],
    action: {
      text: "Until then its last good copy still blocks its busy times. Fix the address or credentials, or remove the calendar, under Availability.",
      label: "Open Availability",
      url: `${site.url}/admin/availability`,
    },
  });
}

/** A row of a visitor email's facts: label, value, and optionally our own link inside the value. */
type Fact = [label: string, value: string, url?: string];

/** A fact's HTML: escaped, with our own link (when the value shows it) made clickable. */
function factValue(value: string, url?: string): string {
  if (!url || !value.includes(url)) return escapeHtml(value);
  const [before, after] = [value.slice(0, value.indexOf(url)), value.slice(value.indexOf(url) + url.length)];
  return `${escapeHtml(before)}<a href="${escapeHtml(url)}" style="color:#1d4ed8;font-weight:600">${escapeHtml(url)}</a>${escapeHtml(after)}`;
}

/** A visitor email's own links: a call to action after the paragraphs, and the newsletter's unsubscribe line. */
interface VisitorLinks {
  action?: { label: string; url: string };
  unsubscribe?: { text: string; label: string; url: string };
}

function visitorEmail(
  lang: Language,
  {
    subject,
    name,
    paragraphs,
    facts,
    after,
    link,
    action,
    unsubscribe,
  }: {
    subject: string;
    name: string | null;
    paragraphs: string[];
    /** Label, value, and one of our own links (a meeting's video room) that the value shows. */
    facts: Fact[];
    after: string[];
    /** One of our own links (never a visitor value), with the sentence before it. */
    link?: { intro: string; link: string; url: string };
  } & VisitorLinks,
): Email {
  const copy = copyOf(lang);
  const [hello, comma] = copy.greeting.named;
  const [ask, askEnd] = copy.questions;
  const text = [
    name === null ? copy.greeting.anonymous : `${hello}${name}${comma}`,
    "",
    ...paragraphs,
    "",
    ...(action ? [`${action.label}:`, action.url, ""] : []),
    ...(facts.length ? [...facts.map(([label, value]) => `${label}: ${value}`), ""] : []),
    ...after,
    ...(link ? ["", link.intro, link.url] : []),
    "",
    `${ask}${site.email}${askEnd}`,
    "",
    copy.signOff,
    copy.team,
    site.url,
    ...(unsubscribe ? ["", `${unsubscribe.text} ${unsubscribe.label}: ${unsubscribe.url}`] : []),
  ].join("\n");

  const greeting =
    name === null ? escapeHtml(copy.greeting.anonymous) : `${escapeHtml(hello)}${inert(name)}${escapeHtml(comma)}`;
  const mailLink = `<a href="mailto:${escapeHtml(site.email)}" style="color:#1d4ed8"><bdi>${escapeHtml(site.email)}</bdi></a>`;
  const body = [
    `<p style="${P}">${greeting}</p>`,
    ...paragraphs.map((p) => `<p style="${P}">${escapeHtml(p)}</p>`),
    action
      ? `<p style="${P}"><a href="${escapeHtml(action.url)}" style="${BUTTON}">${escapeHtml(action.label)}</a></p>`
      : "",
    facts.length
      ? `<table role="presentation" style="border-collapse:collapse;width:100%">${facts
          .map(
            ([label, value, url]) =>
              `<tr><th style="${TH}">${escapeHtml(label)}</th><td style="${TD}"><bdi>${factValue(value, url)}</bdi></td></tr>`,
          )
          .join("")}</table>`
      : "",
    ...after.map((p) => `<p style="${P}">${escapeHtml(p)}</p>`),
    link
      ? `<p style="${P}">${escapeHtml(link.intro)}<br><a href="${escapeHtml(link.url)}" style="color:#1d4ed8;font-weight:600">${escapeHtml(link.link)}</a></p>`
      : "",
    `<p style="${P}">${escapeHtml(ask)}${mailLink}${escapeHtml(askEnd)}</p>`,
    `<p style="${P}">${escapeHtml(copy.signOff)}<br>${escapeHtml(copy.team)}<br><a href="${escapeHtml(site.url)}" style="color:#1d4ed8"><bdi>${escapeHtml(site.host)}</bdi></a></p>`,
    unsubscribe
      ? `<p style="${SMALL}">${escapeHtml(unsubscribe.text)} <a href="${escapeHtml(unsubscribe.url)}" style="color:#4b5563">${escapeHtml(unsubscribe.label)}</a></p>`
      : "",
  ]
    .filter(Boolean)
    .join("\n");
  return { subject, text, html: page(lang, subject, body) };
}

const P = "margin:0 0 16px;line-height:1.6";
const H1 = "margin:0 0 16px;font-size:20px";
const H2 = "margin:24px 0 8px;font-size:16px";
const TH =
  "padding:6px 12px 6px 0;text-align:start;vertical-align:top;white-space:nowrap;color:#4b5563;font-weight:600";
const TD = "padding:6px 0;vertical-align:top";
const BUTTON =
  "display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;font-weight:600;text-decoration:none";
const SMALL = "margin:24px 0 0;font-size:13px;color:#4b5563;line-height:1.6";
const BOX = "padding:12px;background:#f3f4f6;border-radius:6px;line-height:1.6";

/** An email's HTML page in a language: `lang` and `dir` (Persian right to left) on html and body. */
export function page(lang: Language, title: string, body: string): string {
  const dir = dirOf(lang);
  const font =
    LANGUAGE_INFO[lang].script === "persian"
      ? "Vazirmatn,Tahoma,'Segoe UI',Arial,sans-serif"
      : "Inter,'Segoe UI',Arial,sans-serif";
  return `<!doctype html>
<html lang="${lang}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body dir="${dir}" style="margin:0;padding:24px;background:#f5f7fa;color:#111827;font-family:${font};font-size:15px">
<div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;text-align:${dir === "rtl" ? "right" : "left"}">
${body}
</div>
</body>
</html>
`;
}

/** Text for HTML: & < > " ' escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A visitor's value for HTML: escaped, and with `. : / @` each in its own <span>, which keeps mail
 * clients from recognising an address or URL in it and turning it into a link. It reads the same.
 */
function inert(value: string): string {
  return escapeHtml(value).replace(/[.:/@]/g, (c) => `<span>${c}</span>`);
}

/**
 * The visitor's name for a greeting, or null for a generic one: only when it looks like a name
 * (letters, spaces, apostrophes, hyphens, dots and joiners, nothing like a domain), so a "name"
 * cannot carry a message or an address to whoever owns the email address that was typed.
 */
function displayName(name: string): string | null {
  const trimmed = name.trim().replace(/\s+/g, " ");
  if (trimmed.length > 60 || !/^[\p{L}\p{M}' ’.\-\u200C\u200D]+$/u.test(trimmed)) return null;
  if (/\.\p{L}{2,}/u.test(trimmed)) return null;
  return trimmed;
}

/**
 * A meeting's time in a language (src/shared/format.ts: Persian readers get the Jalali date with the
 * Gregorian one, in Persian digits):
 * - long: "Tuesday, 24 November 2026, 11:00–11:30" · "سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)، ۱۱:۰۰–۱۱:۳۰"
 * - subject: "Tue, 24 Nov 2026, 11:00" · "۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)، ساعت ۱۱:۰۰"
 * - short (the company's English subject): "Tue, 24 Nov 2026, 11:00"
 */
function meetingWhen(lang: Language, date: string, time: string): { long: string; subject: string; short: string } {
  const tr = plainT(lang);
  const end = toTime(toMinutes(time) + MEETING_MINUTES);
  return {
    long: tr("mail.meeting.slot", {
      date: formatDate(lang, date),
      start: formatTime(lang, time),
      end: formatTime(lang, end),
    }),
    subject: tr("mail.meeting.start", { date: formatDate(lang, date, "short"), time: formatTime(lang, time) }),
    short: `${formatDate("en", date, "short")}, ${time}`,
  };
}

// Made once: building an Intl formatter costs more than using it (it showed in a profile of enquiries).
const OFFICE_DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  timeZone: OFFICE_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** An instant as Amsterdam date and time, e.g. "23 Nov 2026, 10:10". */
function officeDateTime(iso: string): string {
  return OFFICE_DATE_TIME.format(new Date(iso));
}
