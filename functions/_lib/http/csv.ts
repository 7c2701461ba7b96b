/**
 * CSV as spreadsheets open it: RFC 4180 (fields with a comma, a semicolon, a tab, a quote or a line
 * break quoted, so a reader that splits on ";" or tabs (Dutch Excel) still sees one cell;
 * quotes doubled, lines ending CRLF), UTF-8 with a byte-order mark so Excel reads Persian right,
 * and no formulas: a cell that starts with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe, so a spreadsheet shows the text instead of running it (OWASP's CSV injection advice).
 *
 * A reader whose separator is not ours (Dutch Excel's ";", a tab, "|") honours a quote only where a
 * field starts, so it splits our quoted cells at its separator and at line breaks: every place inside
 * a cell where such a field could start (after , ; tab | CR LF, then any spaces or quotes) gets the
 * apostrophe too when a formula character follows.
 */

/** The byte-order mark that starts the file. */
export const BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_AFTER_SEPARATOR = /([,;\t|\r\n][\s"]*)(?=[=+\-@])/g;

/** One cell: inert, and quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return /[",;\t|\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF included. */
export const csvLine = (cells: readonly (string | number | null | undefined)[]): string =>
  `${cells.map(csvCell).join(",")}\r\n`;

/** A small CSV download of these rows (the first is the header), named `filename`, built in memory. */
export function csvResponse(rows: readonly (readonly string[])[], filename: string): Response {
  return new Response(BOM + rows.map(csvLine).join(""), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
