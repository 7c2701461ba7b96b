/**
 * A new team member, added from the content editor: its id made from the English name, the member
 * checked by the site's own schema (src/data/content-schema.ts), and team.json written with the
 * member appended as prettier writes the file, so the commit adds exactly the member's lines.
 */
import { teamMember, type TeamMember } from "#src/data/content-schema.ts";
import type { NewTeamMemberPayload } from "#shared/schemas/content.ts";
import { teamMemberId } from "#shared/schemas/content.ts";
import { LANGUAGES } from "#shared/languages.ts";
import { toPersianLetters } from "#shared/text-rules.ts";
import { SOURCE_LANGUAGE } from "#shared/languages.ts";
import { oneLine } from "#shared/text-rules.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { HttpError } from "../http/http.ts";
import { parseJsonSource, toPlain } from "./json-source.ts";
import { checkChanges, CONTENT_PATHS, parseTexts, reviewedFile, revisionOf, type Files } from "./texts.ts";

/** The member's fields that hold a text in every language, in the file's order. */
export const MEMBER_TEXTS = ["name", "role", "bio"] as const;

/** A member the schema refuses: field ("name.nl", "languages") → messages. */
export class InvalidMemberError extends Error {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>) {
    super("The team member is not valid.");
    this.errors = errors;
  }
}

/** Texts as saved: trimmed, Persian with Persian letters (as the editor writes a saved text). */
const textOf = (lang: string, value: string) => (lang === "fa" ? toPersianLetters(value.trim()) : value.trim());

/** The member the payload describes, checked by the site's schema (InvalidMemberError otherwise). */
export function memberOf(payload: NewTeamMemberPayload["member"]): TeamMember {
  const texts = Object.fromEntries(
    MEMBER_TEXTS.map((field) => [
      field,
      Object.fromEntries(LANGUAGES.map((lang) => [lang, textOf(lang, payload[field][lang])])),
    ]),
  );
  const candidate = {
    id: teamMemberId(payload.name.en),
    ...texts,
    languages: payload.languages,
    services: payload.services,
  };
  const parsed = teamMember.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    // An id refused is the English name's fault: the form shows it there.
    const field = issue.path[0] === "id" ? "name.en" : issue.path.slice(0, 2).join(".") || "member";
    const message = issue.path[0] === "id" ? "The English name needs at least one letter or digit." : issue.message;
    (errors[field] ??= []).push(message);
  }
  throw new InvalidMemberError(errors);
}

/** The ids of team.json's members. */
export const memberIds = (text: string): string[] => {
  const plain = toPlain(parseJsonSource(text).root);
  return Array.isArray(plain) ? plain.map((m) => String((m as { id?: unknown }).id)) : [];
};

const list = (items: readonly string[]) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;

/** One member as prettier formats it inside the file's list: two spaces per level, short lists on one line. */
export function formatMember(member: TeamMember): string {
  const lines = ["  {", `    "id": ${JSON.stringify(member.id)},`];
  for (const field of MEMBER_TEXTS) {
    lines.push(`    ${JSON.stringify(field)}: {`);
    LANGUAGES.forEach((lang, i) =>
      lines.push(`      "${lang}": ${JSON.stringify(member[field][lang])}${i < LANGUAGES.length - 1 ? "," : ""}`),
    );
    lines.push("    },");
  }
  lines.push(`    "languages": ${list(member.languages)},`, `    "services": ${list(member.services)}`, "  }");
  return lines.join("\n");
}

/** team.json with `member` appended as its last entry; the rest of the file stays byte for byte. */
export function appendMember(text: string, member: TeamMember): string {
  const { root } = parseJsonSource(text);
  if (root.kind !== "array") throw new Error("team.json is not a list");
  const last = root.items.at(-1);
  const at = last ? last.end : root.start + 1;
  return `${text.slice(0, at)}${last ? "," : ""}\n${formatMember(member)}\n${text.slice(root.end - 1)}`;
}

/** Where the form shows a copy-check message: "lang:team:id.field" → "field.lang". */
const formField = (address: string) => {
  const [lang, , rest] = address.split(":");
  return `${rest.split(".").at(-1)}.${lang}`;
};

/**
 * POST /api/content/team's work: the member the payload describes (400 with each field's problems),
 * and the change commitWithRetry makes of the files as they are then: 409 when the id is taken (by
 * someone who added the same person meanwhile, if team.json moved since the form was loaded), 400
 * when a text breaks the copy rules; the new Dutch and Persian texts count as reviewed, since an
 * editor wrote them.
 */
export function addMember(payload: NewTeamMemberPayload) {
  let member: TeamMember;
  try {
    member = memberOf(payload.member);
  } catch (error) {
    if (error instanceof InvalidMemberError)
      throw new HttpError(400, "Some fields need a change before the team member can be added.", {
        errors: error.errors,
      });
    throw error;
  }
  const path = CONTENT_PATHS.collections.team;
  const change = (files: Files) => {
    const text = files.get(path)!;
    if (memberIds(text).includes(member.id)) {
      const moved = payload.revisions[path] !== undefined && payload.revisions[path] !== revisionOf(text);
      throw new HttpError(
        409,
        moved
          ? `Someone else added a team member with the id “${member.id}” since you opened the page.`
          : `There is a team member with the id “${member.id}” already.`,
        { errors: { "name.en": [`The id “${member.id}” is taken: give the English name in another form.`] } },
      );
    }
    const team = appendMember(text, member);
    const after = parseTexts(new Map([...files, [path, team]]));
    const added: TextAddress[] = MEMBER_TEXTS.flatMap((field) =>
      LANGUAGES.map((lang) => ({ lang, key: `team:${member.id}.${field}` })),
    );
    const problems = checkChanges(after, after, added);
    if (Object.keys(problems).length) {
      const errors: Record<string, string[]> = {};
      for (const [address, messages] of Object.entries(problems)) (errors[formField(address)] ??= []).push(...messages);
      throw new HttpError(400, "Some texts need a change before the team member can be added.", { errors });
    }
    const changed = new Map<string, string>([[path, team]]);
    const reviewed = reviewedFile(
      after,
      added.filter((a) => a.lang !== SOURCE_LANGUAGE),
    );
    if (reviewed && reviewed !== files.get(CONTENT_PATHS.reviewed)) changed.set(CONTENT_PATHS.reviewed, reviewed);
    const message = `Team: add ${oneLine(member.name.en)} (${member.id})\n\nAdded in the content editor.`;
    return { changed, message };
  };
  return { member, change };
}
