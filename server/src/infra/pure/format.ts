/** Thousandths of a euro to euros with two decimals (4567 -> 4.57). */
export function toEuros(thousandths: number): number {
  return Math.round(thousandths / 10) / 100;
}

/** "Sadrokartónová doska 12,5 mm" -> "sadrokartonova-doska-12-5-mm". */
export function slugify(text: string): string {
  return foldText(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Lower-case ASCII without diacritics, for sorting and matching the same way on every database. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/²/g, '2')
    .replace(/³/g, '3')
    .toLowerCase();
}
