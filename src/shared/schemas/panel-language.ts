/** PATCH /api/user: the language the signed-in person reads the admin panel in (null: the browser's). */
import { z } from "zod";
import { LANGUAGES } from "../languages.ts";

export const panelLanguageSchema = z.strictObject({
  language: z.enum(LANGUAGES, { message: `language must be one of ${LANGUAGES.join(", ")}, or null` }).nullable(),
});

export type PanelLanguagePatch = z.infer<typeof panelLanguageSchema>;
