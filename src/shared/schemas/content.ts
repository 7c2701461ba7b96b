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
