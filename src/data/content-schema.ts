/**
 * The shape of the content files editors change (testimonials.json, team.json, social-images.json).
 * The site reads them through `content.ts`; `npm run check:copy` checks them with these same
 * schemas, so a mistake is reported with its file and line before the build starts.
 * Messages are written for an editor: they follow "<file>, line N (<entry> → <field>):".
 */
import { z } from "zod";
import { englishLanguageName, LANGUAGES, type Language } from "#shared/languages.ts";
import { BOOKABLE_SERVICES } from "#shared/services.ts";

const missingOr = (missing: string, wrong: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? missing : wrong;

/** An object that refuses unknown fields, naming them and the fields it knows (a typo is the usual cause). */
const strictObject = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${issue.keys.map((k) => `“${k}”`).join(", ")} ${issue.keys.length > 1 ? "are not fields" : "is not a field"} here; the fields are ${Object.keys(shape).join(", ")} (check the spelling)`
        : issue.input === undefined
          ? "is missing"
          : `must be a group { … } with ${Object.keys(shape).join(", ")}`,
  });

/** "a", "b" and "c" */
const quotedList = (items: readonly string[]) =>
  items
    .map((item) => `"${item}"`)
    .join(", ")
    .replace(/, ([^,]*)$/, " and $1");

/** A text in every language of the site. Whether each one is present and sound is checked by the copy rules. */
export const langText = z.object(
  Object.fromEntries(
    LANGUAGES.map((lang) => [
      lang,
      z.string({
        error: missingOr(`the ${englishLanguageName(lang)} text is missing`, "must be a text in double quotes"),
      }),
    ]),
  ) as Record<Language, z.ZodString>,
  { error: missingOr("is missing", `must be a group with ${quotedList(LANGUAGES)} texts`) },
);
export type LangText = z.infer<typeof langText>;

const id = z
  .string({ error: missingOr('"id" is missing', '"id" must be a text') })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "the id may hold only lower-case letters, digits and dashes" });

/** An image in public/: its path as the site serves it, and a description for people who cannot see it. */
export const image = strictObject({
  src: z
    .string({ error: missingOr('"src" is missing', '"src" must be a text') })
    .regex(/^\/[\w./-]+\.(?:jpe?g|png|webp|avif)$/i, {
      error:
        'must be a path in public/ that starts with / and ends in .jpg, .png, .webp or .avif, e.g. "/images/people/name.jpg"',
    }),
  alt: langText,
});
export type Image = z.infer<typeof image>;

export const testimonial = strictObject({
  id,
  author: langText,
  company: langText,
  content: langText,
  rating: z
    .number({ error: missingOr("the rating is missing", "must be a number from 1 to 5, without quotes") })
    .min(1, { error: "must be a number from 1 to 5" })
    .max(5, { error: "must be a number from 1 to 5" })
    .multipleOf(0.5, { error: "must be a whole or half number (4 or 4.5)" }),
  linkedinUrl: z
    .string({ error: missingOr("the LinkedIn address is missing", "must be a text") })
    .regex(/^https:\/\/(?:[a-z]{2,3}\.)?linkedin\.com\/\S+$/, {
      error: "must be a LinkedIn address that starts with https://www.linkedin.com/",
    }),
  emojis: z
    .array(z.string(), { error: 'must be a list such as ["🤝", "🌷"]' })
    .max(3, { error: "can hold at most three emoji" })
    .default([]),
  photo: image.optional(),
});
export type Testimonial = z.infer<typeof testimonial>;

/** A list of distinct values from `allowed`, at least one: the languages a consultant speaks, the services they take. */
const someOf = <T extends string>(allowed: readonly [T, ...T[]], what: string) =>
  z
    .array(z.enum(allowed, { error: `each must be one of ${quotedList(allowed)}` }), {
      error: `must be a list such as ["${allowed[0]}"] of ${what}`,
    })
    .min(1, { error: `needs at least one of ${quotedList(allowed)}` })
    .refine((items) => new Set(items).size === items.length, { error: `names one of ${what} twice` });

/**
 * A member of the team, who is also a consultant visitors can book: the languages they hold
 * meetings in and the services they take (the booking dialog and the slots read these).
 */
export const teamMember = strictObject({
  id,
  name: langText,
  role: langText,
  bio: langText,
  photo: image.optional(),
  languages: someOf(LANGUAGES, "the site's languages"),
  services: someOf(BOOKABLE_SERVICES, "the services"),
});
export type TeamMember = z.infer<typeof teamMember>;

const unique = <T extends { id: string }>(items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id))
      ctx.addIssue({ code: "custom", path: [index, "id"], message: `the id “${item.id}” is used twice` });
    seen.add(item.id);
  });
};

export const testimonialsFile = z
  .array(testimonial, { error: "must be a list [ … ] of testimonials" })
  .min(1, { error: "needs at least one testimonial" })
  .superRefine(unique);
export const teamFile = z
  .array(teamMember, { error: "must be a list [ … ] of team members" })
  .min(1, { error: "needs at least one team member" })
  .superRefine(unique);

/**
 * The image shown when a page is shared on social media, by page path ("/", "/startup-visa" …);
 * "default" serves every page without its own. 1200 × 630 px is what the networks crop to.
 */
export const socialImagesFile = z.record(z.string(), image, { error: "must be a group of page paths" });
export type SocialImages = z.infer<typeof socialImagesFile>;
