/**
 * Numeric text input cleaning (requirements R5.3): remove whitespace, turn
 * commas into dots, drop every character other than digits and dots, and
 * merge the dots after the first one away ("1.2.3" → "1.23").
 */
export function cleanNumericInput(text: string): string {
  const kept = text
    .replace(/\s+/g, '')
    .replace(/,/g, '.')
    .replace(/[^0-9.]/g, '');
  const firstDot = kept.indexOf('.');
  if (firstDot === -1) return kept;
  return kept.slice(0, firstDot + 1) + kept.slice(firstDot + 1).replace(/\./g, '');
}

/**
 * What a numeric field shows while the shopper types: the cleaning of requirements R5.3, with the decimal
 * separator a Slovak shopper writes ("2,5" stays "2,5", never "2.5").
 */
export function numericInputText(text: string): string {
  return cleanNumericInput(text).replace('.', ',');
}

/**
 * A quantity typed by the shopper as a positive integer amount.
 * Null when the cleaned text is empty, not a number or 0. A fraction is
 * rounded down, but anything above 0 gives at least 1 ("0,5" → 1, "2,7" → 2).
 */
export function parseAmountInput(text: string): number | null {
  const cleaned = cleanNumericInput(text);
  if (cleaned === '' || cleaned === '.') return null;
  const value = Number(cleaned);
  if (!Number.isFinite(value) || value <= 0) return null;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, Math.floor(value)));
}
