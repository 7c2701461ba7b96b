/**
 * How messages leave: SMTP through nodemailer when SMTP_URL is set; otherwise, outside production,
 * the file outbox (each message an .eml file under DATA_DIR/outbox/, one log line each), so a
 * local run shows exactly what would have been sent. In production without SMTP_URL every send
 * fails with a clear error: the messages wait in the database and the admin lists show them failing.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SendMailOptions, Transporter } from "nodemailer";
import { ConfigError } from "#server/config-error.ts";
import { isProduction, mailConfig } from "#server/config.ts";

export interface MailTransport {
  /** "smtp", "file" or "unconfigured", for logs. */
  readonly kind: string;
  /** Sends one message; `id` names it (the outbox row). Rejects when the message was not accepted. */
  send(message: SendMailOptions, id: string): Promise<void>;
}

// A send must finish well inside the outbox's 2-minute claim, and a scheduled run inside 30 s.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };

/**
 * SMTP connections one instance keeps open and sends on side by side. A backlog drains at about
 * SMTP_CONNECTIONS / (the server's time per message) messages a second: 25 / 0.15 s ≈ 165 a second
 * against a server taking 150 ms, so 2,000 messages in about 12 s, inside one scheduled run
 * (`npm run rehearse:deploy` measures it).
 */
export const SMTP_CONNECTIONS = 25;

// nodemailer is the largest thing a mail-sending function carries; loaded when the first message
// is sent (after the answer, in context.waitUntil), never on the path of a cold start's answer.
let mailer: Promise<typeof import("nodemailer")> | undefined;
const loadMailer = () => (mailer ??= import("nodemailer"));

let cached: { key: string; transport: MailTransport } | undefined;

/** The transport the environment asks for, created once per configuration. */
export function mailTransport(): MailTransport {
  const { smtpUrl, outboxDir } = mailConfig();
  const key = smtpUrl ? `smtp ${smtpUrl}` : isProduction() ? "unconfigured" : `file ${outboxDir}`;
  if (cached?.key !== key) {
    const transport = smtpUrl
      ? smtpTransport(smtpUrl)
      : isProduction()
        ? unconfiguredTransport()
        : fileTransport(outboxDir);
    cached = { key, transport };
  }
  return cached.transport;
}

/** SMTP through nodemailer; the URL carries host, port, credentials and options (smtp:// or smtps://). */
export function smtpTransport(url: string): MailTransport {
  // One pool per instance: messages sent side by side share SMTP_CONNECTIONS connections instead of
  // opening one each.
  let transporter: Promise<Transporter> | undefined;
  const pooled = () =>
    (transporter ??= loadMailer().then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        maxMessages: Infinity,
        ...SMTP_TIMEOUTS,
      }),
    ));
  return {
    kind: "smtp",
    async send(message) {
      await (await pooled()).sendMail(message);
    },
  };
}

/** Writes each message, exactly as SMTP would carry it, to `<dir>/<timestamp>-<id>.eml`. */
export function fileTransport(dir: string): MailTransport {
  let composer: Promise<Transporter> | undefined;
  const compose = () =>
    (composer ??= loadMailer().then(({ default: nodemailer }) =>
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
    ));
  return {
    kind: "file",
    async send(message, id) {
      const info = await (await compose()).sendMail(message);
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id}.eml`);
      await writeFile(file, info.message as Buffer);
      console.log(`[mail] no SMTP_URL: wrote ${file} (to ${String(message.to)}: ${message.subject})`);
    },
  };
}

function unconfiguredTransport(): MailTransport {
  return {
    kind: "unconfigured",
    async send() {
      throw new ConfigError(
        "SMTP_URL is not set: production sends email through an SMTP server (smtp://user:password@host:587).",
      );
    },
  };
}
