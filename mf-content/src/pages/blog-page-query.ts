/** The blog's page number from the URL's `page` (1 when missing or not a positive whole number). */
export function readPage(value: string | null): number {
  const page = Number(value ?? '1');
  return Number.isInteger(page) && page > 0 ? page : 1;
}
