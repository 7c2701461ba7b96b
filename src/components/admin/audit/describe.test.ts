import { describe, expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import nl from "#src/i18n/locales/nl.json";
import fa from "#src/i18n/locales/fa.json";
import type { AuditEntry } from "#shared/api/security.ts";
import { AUDIT_ACTIONS } from "#shared/schemas/security.ts";
import { fill } from "../copy";
import { actionKey, actionName, detailText, placeText, targetText, whoText, type Describer } from "./describe";

const describer = (lang: "en" | "nl" | "fa", copy = { en, nl, fa }[lang].admin): Describer => {
  const f = (text: string, values: Record<string, string | number>) => fill(lang, text, values);
  const rules = new Intl.PluralRules(lang);
  return {
    lang,
    copy,
    f,
    p: (entry, count) => f(rules.select(count) === "one" ? entry.one : entry.other, { count }),
  };
};
const EN = describer("en");
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: "1",
  at: "2026-11-24T10:00:00.000Z",
  actor: "sara",
  place: "NL",
  action: "export",
  target: "",
  subject: null,
  detail: {},
  ...over,
});

describe("actionName", () => {
  test("every action the server records has a name in English, Dutch and Persian", () => {
    for (const lang of ["en", "nl", "fa"] as const)
      for (const action of AUDIT_ACTIONS) {
        const name = actionName(action, describer(lang).copy.audit);
        expect(name, `${lang} ${action}`).not.toBe(action);
        expect(name.length, `${lang} ${action}`).toBeGreaterThan(1);
      }
  });

  test("keys dotted names in camel case and shows an unknown action as recorded", () => {
    expect(actionKey("signin.failure")).toBe("signinFailure");
    expect(actionKey("meetings-feed")).toBe("meetingsFeed");
    expect(actionName("export", en.admin.audit)).toBe("Exported");
    expect(actionName("something.new", en.admin.audit)).toBe("something.new");
    expect(actionName("constructor", en.admin.audit)).toBe("constructor");
  });
});

describe("whoText", () => {
  test("names the account, else the name typed at a failed sign-in, else nobody", () => {
    expect(whoText(entry({ actor: "sara" }), EN)).toBe("sara");
    expect(whoText(entry({ actor: "", action: "signin.failure", subject: "mallory" }), EN)).toBe("typed: mallory");
    expect(whoText(entry({ actor: "", subject: null }), EN)).toBe("nobody signed in");
  });
});

describe("targetText", () => {
  test("names what an export or a setting touched", () => {
    expect(targetText(entry({ action: "export", target: "enquiries" }), EN)).toBe("Leads");
    expect(targetText(entry({ action: "export", target: "audit" }), EN)).toBe("Audit record");
    expect(targetText(entry({ action: "settings.change", target: "meetings-feed" }), EN)).toBe("Meetings feed");
    expect(targetText(entry({ action: "settings.change", target: "booking-rules" }), describer("nl"))).toBe(
      "Boekingsregels",
    );
  });

  test("names a lead or meeting by the reference the panel and the emails show", () => {
    expect(targetText(entry({ action: "lead.status", target: "42" }), EN)).toBe("Lead E-00042");
    expect(targetText(entry({ action: "lead.owner", target: "42" }), EN)).toBe("Lead E-00042");
    expect(targetText(entry({ action: "meeting.status", target: "7" }), describer("fa"))).toBe("جلسه M-00007");
  });

  test("shows accounts and texts as recorded, and whom a privacy action was about", () => {
    expect(targetText(entry({ action: "role.change", target: "writer" }), EN)).toBe("writer");
    expect(targetText(entry({ action: "export", target: "__proto__" }), EN)).toBe("__proto__");
    expect(targetText(entry({ action: "privacy.export", subject: "a@example.com" }), EN)).toBe("a@example.com");
  });
});

describe("detailText", () => {
  test("reads the detail of the actions a person asks about", () => {
    expect(detailText(entry({ action: "role.change", detail: { from: "editor", to: "admin" } }), EN)).toBe(
      "editor → admin",
    );
    expect(detailText(entry({ action: "invite", detail: { role: "editor" } }), describer("nl"))).toBe("redacteur");
    expect(detailText(entry({ action: "export", detail: { rows: 1, filters: {} } }), EN)).toBe("1 row");
    expect(
      detailText(entry({ action: "export", detail: { filters: { status: "pending" }, searched: false } }), EN),
    ).toBe("with filters");
    expect(
      detailText(entry({ action: "export", detail: { rows: 12, filters: { action: "export" } } }), describer("fa")),
    ).toBe("۱۲ ردیف، با فیلتر");
    expect(detailText(entry({ action: "password.change", detail: { sessionsEnded: 2 } }), EN)).toBe(
      "2 other sessions ended",
    );
    expect(detailText(entry({ action: "session.end", detail: { own: true } }), EN)).toBe("own session");
    // Entries from before the stages read in the stages' words.
    expect(detailText(entry({ action: "lead.status", detail: { isProcessed: true } }), EN)).toBe("New → Replied");
    expect(detailText(entry({ action: "lead.status", detail: { isProcessed: false } }), describer("nl"))).toBe(
      "Beantwoord → Nieuw",
    );
    expect(detailText(entry({ action: "lead.status", detail: { from: "new", to: "lost" } }), EN)).toBe("New → Lost");
    expect(detailText(entry({ action: "lead.status", detail: { from: "new", to: "client" } }), describer("nl"))).toBe(
      "Nieuw → Klant",
    );
    expect(detailText(entry({ action: "lead.status", detail: { from: "__proto__", to: "x" } }), EN)).toBe(
      "__proto__ → x",
    );
    expect(detailText(entry({ action: "lead.reply", detail: { reference: "E-00042" } }), EN)).toBe("E-00042");
    expect(detailText(entry({ action: "lead.reply", detail: { reference: { toString: "x" } } }), EN)).toBe("");
    expect(targetText(entry({ action: "lead.reply", target: "42" }), EN)).toBe("Lead E-00042");
    expect(actionName("lead.reply", EN.copy.audit)).toBe("Sent a reply");
    expect(detailText(entry({ action: "lead.owner", detail: { fromName: null, toName: "sara" } }), EN)).toBe(
      "owner: — → sara",
    );
    expect(detailText(entry({ action: "lead.follow-up", detail: { from: null, to: "2026-12-01" } }), EN)).toBe(
      "follow-up: — → 2026-12-01",
    );
    expect(
      detailText(entry({ action: "lost-reason.change", detail: { archived: true, labels: { en: "No budget" } } }), EN),
    ).toBe("archived: No budget");
    expect(detailText(entry({ action: "lead.status", detail: { deleted: true } }), EN)).toBe("deleted");
    expect(detailText(entry({ action: "meeting.status", detail: { outcome: "no-show" } }), EN)).toBe(
      "outcome: No-show",
    );
    expect(detailText(entry({ action: "meeting.status", detail: { cancelled: true } }), EN)).toBe("cancelled");
    expect(
      detailText(entry({ action: "meeting.status", detail: { consultant: { from: "Nasrin", to: "Pieter" } } }), EN),
    ).toBe("consultant: Nasrin → Pieter");
    expect(
      detailText(
        entry({ action: "meeting.status", detail: { moved: { from: "2026-11-25 10:00", to: "2026-11-26 14:00" } } }),
        EN,
      ),
    ).toBe("moved: 2026-11-25 10:00 → 2026-11-26 14:00");
  });

  test("says nothing of a detail it does not know, whatever its shape", () => {
    expect(detailText(entry({ action: "settings.change", detail: { added: 3 } }), EN)).toBe("");
    expect(detailText(entry({ action: "export", detail: { rows: "many" } }), EN)).toBe("");
    expect(detailText(entry({ action: "meeting.status", detail: { outcome: "toString" } }), EN)).toBe("");
    expect(detailText(entry({ action: "role.change", detail: { from: "__proto__", to: 5 } }), EN)).toBe(
      "__proto__ → 5",
    );
  });
});

describe("placeText", () => {
  const region = (code: string) => new Intl.DisplayNames("en", { type: "region" }).of(code) ?? code;
  test("names the country and keeps the network prefix", () => {
    expect(placeText("NL · 192.0.2.0/24", region)).toBe("Netherlands · 192.0.2.0/24");
    expect(placeText("IR", region)).toBe("Iran");
    expect(placeText("2001:db8:abcd::/48", region)).toBe("2001:db8:abcd::/48");
    expect(placeText("", region)).toBe("");
  });
});
