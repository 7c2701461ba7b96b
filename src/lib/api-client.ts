/**
 * The client side of the API, used by every island: JSON requests that always send cookies,
 * with a JSON content type only when there is a body, and no retries. A non-OK answer becomes an
 * ApiError carrying the status and the parsed body.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;
  constructor(message: string, status: number, data: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.data = data;
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

export interface RequestOptions {
  body?: unknown;
  /** "null": a 401 resolves to null instead of throwing (the admin's current-user check). */
  on401?: "throw" | "null";
  /** Sees the answer's headers (a paged list's `Link`) before its body is read. */
  onResponse?: (response: Response) => void;
  /** Extra request headers (a manage link's `Authorization`). */
  headers?: Record<string, string>;
}

/** One JSON call. Throws ApiError for a non-OK answer and NetworkError when nothing answered. */
export async function apiRequest<T>(
  method: string,
  url: string,
  options: RequestOptions & { on401: "null" },
): Promise<T | null>;
export async function apiRequest<T>(method: string, url: string, options?: RequestOptions): Promise<T>;
export async function apiRequest<T>(
  method: string,
  url: string,
  { body, on401 = "throw", onResponse, headers }: RequestOptions = {},
): Promise<T | null> {
  const init: RequestInit = { method, credentials: "include" };
  if (headers) init.headers = { ...headers };
  if (body !== undefined) {
    init.headers = { ...headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new NetworkError();
  }
  if (response.status === 401 && on401 === "null") return null;
  onResponse?.(response);
  const text = await response.text();
  if (!response.ok) {
    const { message, body: parsed } = errorMessage(text, response.statusText);
    throw new ApiError(message, response.status, parsed);
  }
  try {
    return (text ? JSON.parse(text) : null) as T;
  } catch {
    throw new ApiError("The server's answer was not JSON", response.status, text);
  }
}

/** Which validation message a server error stands for (email, phone or name). */
export function errorTopic(message: string): "email" | "phone" | "firstName" | "lastName" | "name" | null {
  const m = message.toLowerCase();
  if (m.includes("email")) return "email";
  if (m.includes("phone")) return "phone";
  if (m.includes("first name")) return "firstName";
  if (m.includes("last name")) return "lastName";
  if (m.includes("name")) return "name";
  return null;
}
