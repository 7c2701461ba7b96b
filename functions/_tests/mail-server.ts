/**
 * A real SMTP server for the notification tests (smtp-server on 127.0.0.1), collecting every
 * message with its SMTP envelope; it can refuse recipients or data, stop, and start again.
 */
import type { AddressInfo } from "node:net";
import ICAL from "ical.js";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect } from "vitest";

export interface ReceivedMessage {
  /** MAIL FROM and RCPT TO as the server saw them: who the message really went to. */
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: ParsedMail;
}

export class TestMailServer {
  readonly messages: ReceivedMessage[] = [];
  /** Answer RCPT TO or DATA with a temporary failure instead of accepting. */
  refuse: false | "rcpt" | "data" = false;
  /** Wait this long before accepting a message's data: a slow server. */
  delayMs = 0;
  port = 0;
  private server: SMTPServer | undefined;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Starts listening (on the same port as before, after a stop). */
  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: STARTTLS would need a certificate the client trusts.
      disabledCommands: ["STARTTLS"],
      logger: false,
      // On stop, idle pooled client connections are dropped at once instead of after 30 s.
      closeTimeout: 100,
      onRcptTo: (_address, _session, callback) => {
        if (this.refuse === "rcpt")
          return callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 450 }));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", async () => {
          if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          if (this.refuse === "data")
            return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          const raw = Buffer.concat(chunks).toString("utf8");
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          simpleParser(raw).then(
            (parsed) => {
              this.messages.push({ envelope, raw, parsed });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening: the mail server has vanished. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until at least `count` messages have arrived, and answers them. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMessage[]> {
    const until = Date.now() + timeoutMs;
    while (this.messages.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} messages, got ${this.messages.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.messages;
  }

  /** The one message whose envelope goes to exactly this address. */
  to(address: string): ReceivedMessage {
    const found = this.messages.filter((m) => m.envelope.to.length === 1 && m.envelope.to[0] === address);
    if (found.length !== 1) throw new Error(`expected one message to ${address}, got ${found.length}`);
    return found[0];
  }
}

/** The invite.ics attached to a message, parsed by ical.js with its VTIMEZONE registered. */
export function invite(m: ReceivedMessage) {
  const file = m.parsed.attachments.find((a) => a.filename === "invite.ics");
  expect(file, `invite.ics in "${m.parsed.subject}"`).toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(file!.content.toString("utf8")));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  return {
    method: calendar.getFirstPropertyValue("method"),
    tzid: vevent.getFirstProperty("dtstart")!.getParameter("tzid"),
    start: event.startDate.toJSDate().toISOString(),
    minutes: (event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()) / 60_000,
    uid: event.uid,
    sequence: event.sequence,
    status: vevent.getFirstPropertyValue("status"),
    organizer: event.organizer,
    attendees: event.attendees.map((a) => a.getFirstValue()),
  };
}
