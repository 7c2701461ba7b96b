/**
 * Which characters a text input may hold, for the schemas (src/shared/schemas/) and the API's
 * edge (functions/_lib/http/http.ts), which refuses the rest in every JSON body and query string before
 * anything is counted or stored.
 *
 * - Every field refuses the C0 controls other than tab, line feed and carriage return, DEL and
 *   the C1 controls (U+0080–U+009F): no keyboard types them, PostgreSQL refuses NUL, and the rest
 *   (escape sequences, backspace, NEL) only hide or garble text in a terminal, a CSV or an email.
 * - Multi-line fields (an enquiry's message, an admin's note) keep tab, line feed and carriage return.
 * - Single-line fields (names, email, phone, company, username, query parameters …) refuse those too:
 *   a line break in a name would end up inside an email's header or a CSV row.
 * Format characters such as the zero-width non-joiner and the direction marks are text (Persian
 * needs them) and stay.
 */

/** A character no text field may hold. */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** A character a single-line field may not hold: the above, tab and the line breaks. */
export const SINGLE_LINE_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** Whether `value` holds a character no text field may hold. */
export const hasControlCharacter = (value: string) => CONTROL_CHARACTER.test(value);

/** Whether `value` holds a character a single-line field may not hold. */
export const breaksSingleLine = (value: string) => SINGLE_LINE_CONTROL.test(value);
