/**
 * CSV downloads for spreadsheet programs: UTF-8 with a byte order mark (so they read it as UTF-8),
 * CRLF line ends and RFC 4180 quoting. A cell a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) is prefixed with ', so it shows as the text it is.
 */

/** One cell, neutralised and quoted when it has to be. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV download of these rows (the first is the header), named `filename`. */
export function csvResponse(rows: readonly (readonly string[])[], filename: string): Response {
  const body = `\uFEFF${rows.map((cells) => cells.map(csvCell).join(",")).join("\r\n")}\r\n`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
