/**
 * The admin panel's calls (spec section 7) and its one error rule (section 8). Every request sends
 * cookies, sets a JSON content type only when it has a body, and is never retried.
 */
import type { z } from "zod";
import type { loginSchema } from "../../shared/schemas";

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

/** A non-OK answer: its message follows the spec's rule; it carries the status and the parsed body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

/** The server could not be reached at all. */
export class NetworkError extends Error {
  constructor() {
    super("Could not reach the server. Check your connection and try again.");
    this.name = "NetworkError";
  }
}

/** Message of a non-OK answer: the body's message, else its error, else the JSON text, else the text or status text. */
export function errorMessage(text: string, statusText: string): { message: string; body: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: text || statusText, body: text };
  }
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const field = [record.message, record.error].find((v) => typeof v === "string" && v.length > 0) as string | undefined;
  return { message: field ?? text, body };
}

interface RequestOptions {
  body?: unknown;
  /** "null": a 401 resolves to null instead of throwing (the current-user check). */
  on401?: "throw" | "null";
}

/** One JSON call. Throws ApiError for a non-OK answer and NetworkError when nothing answered. */
export async function apiRequest<T>(method: string, url: string, options: RequestOptions & { on401: "null" }): Promise<T | null>;
export async function apiRequest<T>(method: string, url: string, options?: RequestOptions): Promise<T>;
export async function apiRequest<T>(method: string, url: string, { body, on401 = "throw" }: RequestOptions = {}): Promise<T | null> {
  const init: RequestInit = { method, credentials: "include", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers = { Accept: "application/json", "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new NetworkError();
  }
  if (response.status === 401 && on401 === "null") return null;
  const text = await response.text();
  if (!response.ok) {
    const { message, body: parsed } = errorMessage(text, response.statusText);
    throw new ApiError(message, response.status, parsed);
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const LOGIN_PATH = "/admin/login";
export const DASHBOARD_PATH = "/admin/submissions";

/** Leaves for the login page; the returned promise never settles, so callers show nothing more. */
export function goToLogin(): Promise<never> {
  window.location.assign(LOGIN_PATH);
  return new Promise<never>(() => {});
}

/** An admin call: a 401 (no or expired session) sends the visitor to the login page. */
async function adminRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  try {
    return await apiRequest<T>(method, url, { body });
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

export const listSubmissions = () => adminRequest<ContactSubmission[]>("GET", "/api/admin/submissions");
export const listMeetings = () => adminRequest<Meeting[]>("GET", "/api/admin/meetings");
export const setSubmissionProcessed = (id: number, isProcessed: boolean) =>
  adminRequest<ContactSubmission>("PATCH", `/api/admin/submissions/${id}`, { isProcessed });
export const setMeetingConfirmed = (id: number, isConfirmed: boolean) =>
  adminRequest<Meeting>("PATCH", `/api/admin/meetings/${id}`, { isConfirmed });
