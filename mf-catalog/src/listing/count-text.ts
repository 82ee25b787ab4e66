import { countSk } from '@shop/shared-kernel/rules';

/** "1 produkt", "3 produkty", "12 produktov" (the kernel's Slovak plural). */
export function productCountText(count: number): string {
  return countSk(count, { one: 'produkt', few: 'produkty', other: 'produktov' });
}
