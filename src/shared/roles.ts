/**
 * The roles an account may have. An admin runs the whole dashboard and invites people; an editor
 * signs in the same way and changes the site's texts only: the API refuses an editor every lead,
 * meeting, subscriber, availability and privacy endpoint.
 */
export const ROLES = ["admin", "editor"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);
