/**
 * The admin panel's calls (spec section 7) and its one error rule (section 8). Every request sends
 * cookies, sets a JSON content type only when it has a body, and is never retried.
 */
import type { z } from "zod";
import type {
  AdminEnquiriesAnswer,
  AdminEnquiry,
  AdminMeeting,
  AdminMeetingsAnswer,
  CurrentUser,
  CurrentUserAnswer,
  ErasureAnswer,
  MessageAnswer,
  NewsletterCountsAnswer,
  PersonalDataExport,
} from "../../shared/api";
import type { loginSchema } from "../../shared/schemas";
import { ApiError, apiRequest } from "../../lib/api-client";

// The one fetch helper of the site (spec sections 7 and 8), shared with the visitor islands.
export { ApiError, NetworkError, errorMessage, apiRequest } from "../../lib/api-client";

export const LOGIN_PATH = "/admin/login";
export const DASHBOARD_PATH = "/admin/submissions";
export const AVAILABILITY_PATH = "/admin/availability";

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
    throw error;
  }
}

/** GET /api/user: the signed-in admin, or null without a session. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  const answer = await apiRequest<CurrentUserAnswer>("GET", "/api/user", { on401: "null" });
  return answer?.success && answer.user ? answer.user : null;
}

export type LoginValues = z.output<typeof loginSchema>;

export const login = (values: LoginValues) => apiRequest<MessageAnswer>("POST", "/api/login", { body: values });
export const logout = () => apiRequest<MessageAnswer>("POST", "/api/logout");

/**
 * Every record of a paged admin list: the API answers a page (an array) and names the next one in a
 * `Link: <…>; rel="next"` header; this follows them to the end.
 */
async function listAll<Answer extends unknown[]>(path: string): Promise<Answer> {
  const items: unknown[] = [];
  let url: string | null = `${path}?limit=200`;
  while (url) {
    let link: string | null = null;
    items.push(...(await adminRequest<Answer>("GET", url, undefined, (r) => (link = r.headers.get("link")))));
    url = link ? (/<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null) : null;
  }
  return items as Answer;
}

// The enquiries keep the spec's URL, /api/admin/submissions.
export const listEnquiries = () => listAll<AdminEnquiriesAnswer>("/api/admin/submissions");
export const listMeetings = () => listAll<AdminMeetingsAnswer>("/api/admin/meetings");
export const setEnquiryProcessed = (id: number, isProcessed: boolean) =>
  adminRequest<AdminEnquiry>("PATCH", `/api/admin/submissions/${id}`, { isProcessed });
export const setMeetingConfirmed = (id: number, isConfirmed: boolean) =>
  adminRequest<AdminMeeting>("PATCH", `/api/admin/meetings/${id}`, { isConfirmed });

/** Deletes a (spam) enquiry and its emails for good. */
export const deleteEnquiry = (id: number) => adminRequest<null>("DELETE", `/api/admin/submissions/${id}`);

/** Everything held about one email address (the privacy export). */
export const exportPersonalData = (email: string) =>
  adminRequest<PersonalDataExport>("POST", "/api/admin/privacy/export", { email });
/** Erases one email address: records anonymised, the rest deleted. */
export const erasePersonalData = (email: string) =>
  adminRequest<ErasureAnswer>("POST", "/api/admin/privacy/erase", { email });

/** How many newsletter addresses are confirmed (the ones that count) and pending. */
export const newsletterCounts = () => adminRequest<NewsletterCountsAnswer>("GET", "/api/admin/newsletter");
/** The CSV download of the confirmed subscribers (a plain link: the session cookie goes with it). */
export const SUBSCRIBERS_CSV_PATH = "/api/admin/newsletter/subscribers.csv";
