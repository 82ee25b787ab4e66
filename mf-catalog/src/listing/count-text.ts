/** "1 produkt", "3 produkty", "12 produktov" (Slovak plural). */
export function productCountText(count: number): string {
  if (count === 1) return '1 produkt';
  if (count >= 2 && count <= 4) return `${count} produkty`;
  return `${count} produktov`;
}
