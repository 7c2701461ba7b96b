/**
 * Testimonials, team members and social images, read from the JSON files editors change. The copy
 * check (`npm run check:copy`, also run before every build) reports mistakes in these files with
 * their line; parsing here again keeps the types honest and fills in defaults.
 */
import testimonialsJson from "./testimonials.json";
import teamJson from "./team.json";
import socialImagesJson from "./social-images.json";
import { socialImagesFile, teamFile, testimonialsFile, type Image, type LangText } from "./content-schema";
import { softHyphens } from "../i18n/typography";

export type { Image, LangText, TeamMember, Testimonial } from "./content-schema";

export const testimonials = testimonialsFile.parse(testimonialsJson);
export const team = teamFile.parse(teamJson);
export const socialImages = socialImagesFile.parse(socialImagesJson);

/** The social image of a page (by its unprefixed path), else the default one, else none. */
export const socialImageFor = (path: string): Image | undefined => socialImages[path] ?? socialImages.default;

/** A content text in the page's language, laid out like the locale texts (soft hyphens in long Dutch words). */
export const textIn = (text: LangText, lang: keyof LangText) => softHyphens(text[lang], lang);
