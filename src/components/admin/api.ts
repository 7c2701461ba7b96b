/**
 * The admin panel's calls and its one error rule. Every request sends
 * cookies, sets a JSON content type only when it has a body, and is never retried.
 */
import type { z } from "zod";
import { type EnquiryFilters, filtersToParams, type MeetingFilters } from "#shared/admin-lists.ts";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { LeadPatch } from "#shared/schemas/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { AdminStats } from "#shared/api/stats.ts";
import type {
  ContentAnswer,
  HistoryAnswer,
  PublishStatus,
  ReviewFlagAnswer,
  SaveAnswer,
  TeamAddAnswer,
  TextChange,
} from "#shared/api/content.ts";
import type { NewTeamMemberPayload } from "#shared/schemas/content.ts";
import type { ErasureAnswer, PersonalDataExport } from "#shared/api/privacy.ts";
import type { NoteAnswer, PersonTimelineAnswer } from "#shared/api/timeline.ts";
import type { InvitedUser } from "#shared/api/people.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { ReplyDeskAnswer, ReplySentAnswer } from "#shared/api/replies.ts";
import type { LoginAnswer } from "#shared/api/factors.ts";
import type { NewsletterCountsAnswer } from "#shared/api/newsletter.ts";
import type { Role } from "#shared/roles.ts";
import type { Language } from "#shared/languages.ts";
import type { PanelUser, PanelUserAnswer } from "#shared/api/panel-language.ts";
import { followUser } from "./copy";
import type { loginSchema } from "#shared/schemas/people.ts";
import { ApiError, apiRequest } from "#src/lib/api-client.ts";
import { fill, ROUTES, withQuery } from "#shared/routes.ts";
import { askStepUp, needsStepUp } from "./security/step-up";

// The one fetch helper of the site, shared with the visitor islands.
export { ApiError, NetworkError, errorMessage, apiRequest } from "#src/lib/api-client.ts";

export const LOGIN_PATH = "/admin/login";
/** Where an admin works: the enquiries. */
export const LEADS_PATH = "/admin/leads";
export const MEETINGS_PATH = "/admin/meetings";
export const PRIVACY_PATH = "/admin/privacy";
export const AVAILABILITY_PATH = "/admin/availability";
export const SOURCES_PATH = "/admin/sources";
export const TEXTS_PATH = "/admin/texts";

/** Where a limited session (a second factor to set up first) is sent. */
export const FACTORS_SETUP_PATH = "/admin/factors";

/**
 * Where a person works: an admin on the leads, an editor in the content editor (/admin/texts);
 * anyone who must set up a second factor first, on its page.
 */
export const homeOf = (user: Pick<PanelUser, "role" | "setup">) =>
  user.setup ? FACTORS_SETUP_PATH : user.role === "admin" ? LEADS_PATH : TEXTS_PATH;

/** Leaves for the login page; the returned promise never settles, so callers show nothing more. */
export function goToLogin(): Promise<never> {
  window.location.assign(LOGIN_PATH);
  return new Promise<never>(() => {});
}

/** An admin call: a 401 (no or expired session) sends the visitor to the login page. */
export async function adminRequest<T>(
  method: string,
  url: string,
  body?: unknown,
  onResponse?: (response: Response) => void,
): Promise<T> {
  try {
    return await apiRequest<T>(method, url, { body, onResponse });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return goToLogin();
    // A change that needs a fresh proof: asked for in place, then sent again (security/step-up.ts).
    if (needsStepUp(error) && (await askStepUp())) return adminRequest<T>(method, url, body, onResponse);
    // A session limited to setting up a second factor: every other page sends it there.
    if (error instanceof ApiError && error.status === 403 && isSetupRequired(error.data)) {
      if (window.location.pathname.replace(/\/$/, "") !== FACTORS_SETUP_PATH)
        window.location.assign(FACTORS_SETUP_PATH);
      return new Promise<never>(() => {});
    }
    throw error;
  }
}

const isSetupRequired = (data: unknown) =>
  typeof data === "object" && data !== null && (data as { code?: unknown }).code === "secondFactorRequired";

/** GET /api/user: the signed-in person, or null without a session. The panel follows their language. */
export async function fetchCurrentUser(): Promise<PanelUser | null> {
  const answer = await apiRequest<PanelUserAnswer>("GET", ROUTES.user, { on401: "null" });
  const user = answer?.success && answer.user ? answer.user : null;
  followUser(user);
  return user;
}

export type LoginValues = z.output<typeof loginSchema>;

export const login = (values: LoginValues) => apiRequest<LoginAnswer>("POST", ROUTES.login, { body: values });
export const logout = () => apiRequest<MessageAnswer>("POST", ROUTES.logout);

/** One page of an admin list, and the address of the next page (null on the last). */
export interface ListPage<T> {
  items: T[];
  next: string | null;
}

/**
 * A page of a paged admin list: the API answers an array and names the next page in a
 * `Link: <…>; rel="next"` header, which keeps the filters.
 */
async function listPage<T>(url: string): Promise<ListPage<T>> {
  let link: string | null = null;
  const items = await adminRequest<T[]>("GET", url, undefined, (r) => (link = r.headers.get("link")));
  const next = link ? (/<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null) : null;
  return { items, next };
}

/** Rows per page as the admin scrolls. */
export const PAGE_SIZE = 50;

const firstPage = (path: string, filters: EnquiryFilters | MeetingFilters) => {
  const params = filtersToParams(filters);
  params.set("limit", String(PAGE_SIZE));
  return `${path}?${params}`;
};

/** The first page of enquiries matching `filters` (next = null), or the page `next` names. */
export const enquiryPage = (filters: EnquiryFilters, next: string | null) =>
  listPage<AdminEnquiry>(next ?? firstPage(ROUTES.admin.enquiries, filters));
export const meetingPage = (filters: MeetingFilters, next: string | null) =>
  listPage<AdminMeeting>(next ?? firstPage(ROUTES.admin.meetings, filters));

/** Where the CSV of a filtered list downloads from (the same parameters as the list). */
export const exportUrl = (list: "submissions" | "meetings", filters: EnquiryFilters | MeetingFilters) => {
  const path = list === "submissions" ? ROUTES.admin.exportEnquiries : ROUTES.admin.exportMeetings;
  return withQuery(path, filtersToParams(filters));
};

export const fetchStats = () => adminRequest<AdminStats>("GET", ROUTES.admin.stats);

/** Changes a lead's stage, owner or follow-up date, based on the version the panel shows (409 leadChanged otherwise). */
export const changeLead = (lead: Pick<AdminEnquiry, "id" | "version">, change: Omit<LeadPatch, "version">) =>
  adminRequest<AdminEnquiry>("PATCH", fill(ROUTES.admin.enquiry, { id: lead.id }), {
    ...change,
    version: lead.version,
  });
export const setMeetingConfirmed = (id: number, isConfirmed: boolean) =>
  adminRequest<AdminMeeting>("PATCH", fill(ROUTES.admin.meeting, { id }), { isConfirmed });
/** Adds a note on an enquiry or a meeting (the card's note editor); answers the record. */
export const saveEnquiryNote = (id: number, note: string) =>
  adminRequest<AdminEnquiry>("POST", fill(ROUTES.admin.enquiryNote, { id }), { note });
/** The lead desk: the lead's messages and, with a template, its preview for the lead (functions/admin-replies.ts). */
export const loadReplyDesk = (id: number, template?: string) =>
  adminRequest<ReplyDeskAnswer>(
    "GET",
    withQuery(fill(ROUTES.admin.enquiryReply, { id }), template ? { template } : {}),
  );
export const sendReply = (id: number, reply: { subject: string; text: string }) =>
  adminRequest<ReplySentAnswer>("POST", fill(ROUTES.admin.enquiryReply, { id }), reply);
export const saveMeetingNote = (id: number, note: string) =>
  adminRequest<AdminMeeting>("POST", fill(ROUTES.admin.meetingNote, { id }), { note });
/** A person's timeline, the newest page, or with `before` (the previous answer's `next`) the older one. */
export const fetchPerson = (ref: string, before?: string) =>
  adminRequest<PersonTimelineAnswer>(
    "GET",
    `${fill(ROUTES.admin.person, { ref })}${before ? `?${new URLSearchParams({ before })}` : ""}`,
  );
export const addPersonNote = (ref: string, note: string) =>
  adminRequest<NoteAnswer>("POST", fill(ROUTES.admin.personNotes, { ref }), { note });
export const editNote = (id: string, note: string) =>
  adminRequest<NoteAnswer>("PATCH", fill(ROUTES.admin.note, { id }), { note });
export const deleteNote = (id: string) => adminRequest<NoteAnswer>("DELETE", fill(ROUTES.admin.note, { id }));

/** Deletes a (spam) enquiry and its emails for good. */
export const deleteEnquiry = (id: number) => adminRequest<null>("DELETE", fill(ROUTES.admin.enquiry, { id }));

/** Everything held about one email address (the privacy export). */
export const exportPersonalData = (email: string) =>
  adminRequest<PersonalDataExport>("POST", ROUTES.admin.privacyExport, { email });
/** Erases one email address: records anonymised, the rest deleted. */
export const erasePersonalData = (email: string) =>
  adminRequest<ErasureAnswer>("POST", ROUTES.admin.privacyErase, { email });

/** How many newsletter addresses are confirmed (the ones that count) and pending. */
export const newsletterCounts = () => adminRequest<NewsletterCountsAnswer>("GET", ROUTES.admin.newsletter);

/** Invites a person; where mail is configured the link goes to `email`, else the answer shows it once. */
export const inviteUser = (invite: { username: string; role: Role; email: string; language: Language }) =>
  adminRequest<InvitedUser>("POST", ROUTES.admin.users, invite);

/** The content editor: every text, the revisions, review flags and copy rules. */
export const fetchTexts = () => adminRequest<ContentAnswer>("GET", ROUTES.content.texts);
/** Saves and publishes changed texts (400 with field errors, 409 with conflicts: ApiError's data). */
export const saveTexts = (revisions: Record<string, string>, changes: TextChange[]) =>
  adminRequest<SaveAnswer>("PUT", ROUTES.content.texts, { revisions, changes });
export const markTextsReviewed = (texts: { lang: string; key: string }[]) =>
  adminRequest<{ success: true; revisions: Record<string, string>; reviews: ReviewFlagAnswer[] }>(
    "POST",
    ROUTES.content.reviewed,
    { texts },
  );
/** Appends a team member to team.json and publishes it (400 with `errors` by field, 409 id taken). */
export const addTeamMember = (revisions: Record<string, string>, member: NewTeamMemberPayload["member"]) =>
  adminRequest<TeamAddAnswer>("POST", ROUTES.content.team, { revisions, member });
/** The latest publishes and undos, newest first. */
export const fetchTextHistory = () => adminRequest<HistoryAnswer>("GET", ROUTES.content.history);
/** Publishes the reverse of a publish as a new commit (4xx with a `code` when refused). */
export const undoTexts = (commit: string) => adminRequest<SaveAnswer>("POST", ROUTES.content.undo, { commit });
export const fetchPublishStatus = () =>
  adminRequest<{ success: true; publish: PublishStatus }>("GET", ROUTES.content.status);
