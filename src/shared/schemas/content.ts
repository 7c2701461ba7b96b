/**
 * The content editor's payloads (functions/content.ts). Apart from the other schema files, whose schemas the
 * public forms bundle: a schema built at module level stays in every bundle that imports the module.
 */
import * as z from "zod/mini";
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from "../languages.ts";
// jitless validation and English messages, as for every schema (fields.ts sets them).
import "./fields.ts";

/** "en, nl or fa": the languages as a refusal names them. */
const oneOf = (list: readonly string[]) => `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`;

/** The languages translated from the source language (reviews are theirs). */
const TRANSLATED_LANGUAGES = LANGUAGES.filter((lang) => lang !== SOURCE_LANGUAGE) as [
  Exclude<Language, typeof SOURCE_LANGUAGE>,
  ...Exclude<Language, typeof SOURCE_LANGUAGE>[],
];

/** PUT /api/content/texts: the changed texts and the revisions they were loaded at. */
export const textChangesSchema = z.strictObject({
  revisions: z.record(z.string().check(z.maxLength(200)), z.string().check(z.regex(/^[0-9a-f]{40}$/))),
  changes: z
    .array(
      z.strictObject({
        lang: z.enum(LANGUAGES, { error: `lang must be ${oneOf(LANGUAGES)}` }),
        key: z.string().check(z.minLength(1), z.maxLength(200)),
        value: z.string().check(z.maxLength(4000, "A text can have at most 4000 characters")),
        was: z.string().check(z.maxLength(4000)),
      }),
    )
    .check(z.minLength(1, "changes must list at least one text"), z.maxLength(500)),
});
export type TextChangesPayload = z.output<typeof textChangesSchema>;

/** POST /api/content/reviewed: translations whose English changed, looked at and found right. */
export const reviewedSchema = z.strictObject({
  texts: z
    .array(
      z.strictObject({
        lang: z.enum(TRANSLATED_LANGUAGES, { error: `lang must be ${oneOf(TRANSLATED_LANGUAGES)}` }),
        key: z.string(),
      }),
    )
    .check(z.minLength(1, "texts must list at least one text"), z.maxLength(500)),
});

/** POST /api/content/undo: the commit of a publish (or undo) to revert. */
export const undoSchema = z.strictObject({
  commit: z.string().check(z.regex(/^[0-9a-f]{40}$/, "commit must be a commit id (40 hexadecimal digits)")),
});

/** The longest name, role and bio a new team member may have (the team page's cards hold about this much). */
export const TEAM_LIMITS = { name: 80, role: 120, bio: 1000 } as const;

/** A text of a new team member in every language, at most `max` characters each. */
const memberText = (field: keyof typeof TEAM_LIMITS) =>
  z.strictObject(
    Object.fromEntries(
      LANGUAGES.map((lang) => [
        lang,
        z
          .string()
          .check(z.maxLength(TEAM_LIMITS[field], `A ${field} can have at most ${TEAM_LIMITS[field]} characters`)),
      ]),
    ) as Record<Language, z.ZodMiniString>,
  );

/**
 * POST /api/content/team: a new team member, its id made from the English name. The shape only:
 * the server checks the member against the site's own schema (src/data/content-schema.ts teamMember).
 */
export const newTeamMemberSchema = z.strictObject({
  revisions: z.record(z.string().check(z.maxLength(200)), z.string().check(z.regex(/^[0-9a-f]{40}$/))),
  member: z.strictObject({
    name: memberText("name"),
    role: memberText("role"),
    bio: memberText("bio"),
    languages: z.array(z.string().check(z.maxLength(10))).check(z.maxLength(LANGUAGES.length)),
    services: z.array(z.string().check(z.maxLength(40))).check(z.maxLength(10)),
  }),
});
export type NewTeamMemberPayload = z.output<typeof newTeamMemberSchema>;

/**
 * A new team member's id, made from the English name: lower-case latin letters and digits joined by
 * dashes ("Sara Rahimi-Jansen" → "sara-rahimi-jansen"); accents dropped, anything else a dash; "" when
 * nothing is left. The form shows it as typed; the server makes it again and refuses one taken.
 */
export const teamMemberId = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
