/**
 * The admin panel's calls (spec section 7) and its one error rule (section 8). Every request sends
 * cookies, sets a JSON content type only when it has a body, and is never retried.
 */
import type { z } from "zod";
import type { loginSchema } from "../../shared/schemas";
import { ApiError, apiRequest } from "../../lib/api-client";

// The one fetch helper of the site (spec sections 7 and 8), shared with the visitor islands.
export { ApiError, NetworkError, errorMessage, apiRequest } from "../../lib/api-client";

/** A contact enquiry as GET /api/admin/submissions lists it. */
export interface ContactSubmission {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string;
  message: string;
  /** ISO timestamp. */
  createdAt: string;
  isProcessed: boolean;
  /** The visitor's language (en, nl, fa). */
  language?: string;
  /** How this record's notification emails are doing; null when it has none. */
  emailStatus?: EmailStatus;
}

export type EmailStatus = "sent" | "pending" | "failing" | null;

/** A meeting reservation as GET /api/admin/meetings lists it. */
export interface Meeting {
  id: number;
  name: string;
  email: string;
  phone: string;
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
  /** ISO timestamp. */
  createdAt: string;
  isConfirmed: boolean;
  language?: string;
  emailStatus?: EmailStatus;
}

export interface LoginResponse {
  success: boolean;
  message?: string;
}

export interface CurrentUser {
  id: number;
  username: string;
}

export const LOGIN_PATH = "/admin/login";
export const DASHBOARD_PATH = "/admin/submissions";

/** Leaves for the login page; the returned promise never settles, so callers show nothing more. */
export function goToLogin(): Promise<never> {
  window.location.assign(LOGIN_PATH);
  return new Promise<never>(() => {});
}

/** An admin call: a 401 (no or expired session) sends the visitor to the login page. */
async function adminRequest<T>(
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
  const answer = await apiRequest<{ success: boolean; user?: CurrentUser }>("GET", "/api/user", { on401: "null" });
  return answer?.success && answer.user ? answer.user : null;
}

export type LoginValues = z.output<typeof loginSchema>;

export const login = (values: LoginValues) => apiRequest<LoginResponse>("POST", "/api/login", { body: values });
export const logout = () => apiRequest<LoginResponse>("POST", "/api/logout");

/**
 * Every record of a paged admin list: the API answers a page (an array) and names the next one in a
 * `Link: <…>; rel="next"` header; this follows them to the end.
 */
async function listAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let url: string | null = `${path}?limit=200`;
  while (url) {
    let link: string | null = null;
    items.push(...(await adminRequest<T[]>("GET", url, undefined, (r) => (link = r.headers.get("link")))));
    url = link ? (/<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null) : null;
  }
  return items;
}

export const listSubmissions = () => listAll<ContactSubmission>("/api/admin/submissions");
export const listMeetings = () => listAll<Meeting>("/api/admin/meetings");
export const setSubmissionProcessed = (id: number, isProcessed: boolean) =>
  adminRequest<ContactSubmission>("PATCH", `/api/admin/submissions/${id}`, { isProcessed });
export const setMeetingConfirmed = (id: number, isConfirmed: boolean) =>
  adminRequest<Meeting>("PATCH", `/api/admin/meetings/${id}`, { isConfirmed });
