/**
 * Server configuration, read from the environment in one place. A missing production secret is
 * an error, never a silent demo mode.
 */
import path from "node:path";
import { site } from "../../src/config/site.ts";
import { defaultBookingConfig, isCalendarDate, type BookingConfig } from "../../src/shared/booking.ts";

export class ConfigError extends Error {}

/** Production means a deployed Netlify production context, or NODE_ENV=production. */
export function isProduction(): boolean {
  return process.env.CONTEXT === "production" || process.env.NODE_ENV === "production";
}

const encoder = new TextEncoder();

/** The HS256 key for session tokens. JWT_SECRET must be at least 32 characters. */
export function jwtSecret(): Uint8Array {
  const secret = process.env.JWT_SECRET;
  if (!secret || secret.length < 32) {
    throw new ConfigError("JWT_SECRET is not set (or shorter than 32 characters): sessions cannot be signed.");
  }
  return encoder.encode(secret);
}

/** Booking rules: the defaults of src/shared/booking.ts, closed dates extended by BOOKING_CLOSED_DATES. */
export function bookingConfig(): BookingConfig {
  const extra = (process.env.BOOKING_CLOSED_DATES ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .filter(isCalendarDate);
  const horizon = Number(process.env.BOOKING_HORIZON_DAYS);
  return {
    ...defaultBookingConfig,
    horizonDays: Number.isInteger(horizon) && horizon > 0 ? horizon : defaultBookingConfig.horizonDays,
    closedDates: [...new Set([...defaultBookingConfig.closedDates, ...extra])].sort(),
  };
}

/** "Now", overridable in tests of the local runtime only (never in production). */
export function now(): Date {
  const fixed = process.env.BOOKING_NOW;
  if (fixed && !isProduction()) {
    const d = new Date(fixed);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return new Date();
}

export interface MailConfig {
  /** SMTP server (smtp:// or smtps://, credentials in the URL); null means the file outbox. */
  smtpUrl: string | null;
  /** Sender of every email. */
  from: string;
  /** Where the company hears of new enquiries and bookings (comma-separated for several). */
  notifyTo: string;
  /** The folder of the file outbox: one .eml per message when there is no SMTP server. */
  outboxDir: string;
}

/**
 * Email settings: SMTP_URL, MAIL_FROM (default: the brand name and company email of site config),
 * NOTIFY_EMAIL (default: the company email), DATA_DIR for the file outbox.
 */
export function mailConfig(): MailConfig {
  return {
    smtpUrl: process.env.SMTP_URL?.trim() || null,
    from: process.env.MAIL_FROM?.trim() || `"${site.name.replace(/["\\\r\n]/g, "")}" <${site.email}>`,
    notifyTo: process.env.NOTIFY_EMAIL?.trim() || site.email,
    outboxDir: path.join(process.env.DATA_DIR || ".data", "outbox"),
  };
}
