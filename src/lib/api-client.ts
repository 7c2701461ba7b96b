/**
 * The client side of spec section 7: JSON requests that always send cookies, with a JSON content
 * type only when there is a body, and no retries. A non-OK answer becomes an ApiError whose message
 * is the body's `message`, else its `error`, else the JSON text, else the plain text or status text.
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

export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const record = (data && typeof data === "object" ? data : {}) as { message?: unknown; error?: unknown };
    const message =
      (typeof record.message === "string" && record.message) ||
      (typeof record.error === "string" && record.error) ||
      (data !== null ? JSON.stringify(data) : "") ||
      text ||
      response.statusText;
    throw new ApiError(message, response.status, data);
  }
  return data as T;
}

/** Which validation message a server error stands for (spec section 8: email, phone or name). */
export function errorTopic(message: string): "email" | "phone" | "firstName" | "lastName" | "name" | null {
  const m = message.toLowerCase();
  if (m.includes("email")) return "email";
  if (m.includes("phone")) return "phone";
  if (m.includes("first name")) return "firstName";
  if (m.includes("last name")) return "lastName";
  if (m.includes("name")) return "name";
  return null;
}
