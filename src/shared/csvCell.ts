// The CSV injection rule (§5 'Import and export'), alone: the time report's CSV uses it too, and the
// import rules (importExport.ts) bring chrono-node and more with them.

/**
 * A cell that a spreadsheet would run as a formula (OWASP CSV injection: it starts with =, +, -, @,
 * a tab or a carriage return) goes out with a leading `'`, which spreadsheets show as text. A cell
 * that already starts with quotes before such a character gets one more, so reading strips exactly
 * one and every text comes back as it was.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The text as an export writes it into a CSV cell (see FORMULA_START). */
export function csvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A CSV cell's text as it was before csvCell. */
export function readCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}
