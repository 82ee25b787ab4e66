/**
 * Slovak plural forms, by the language's own rule (Intl.PluralRules 'sk'):
 * `one` for 1, `few` for 2 to 4, `many` for fractions (1,5), `other` for 0, 5 and more.
 * Pass `many` only when fractions have their own word; without it they take `other`.
 */
export type SlovakForms = { one: string; few: string; many?: string; other: string };

const rules = new Intl.PluralRules('sk');

/** The word for `count`: pluralSk(5, { one: 'položka', few: 'položky', other: 'položiek' }) → 'položiek'. */
export function pluralSk(count: number, forms: SlovakForms): string {
  const category = rules.select(count);
  if (category === 'one' || category === 'few') return forms[category];
  if (category === 'many') return forms.many ?? forms.other;
  return forms.other;
}

/** The count with its word: countSk(3, { one: 'produkt', few: 'produkty', other: 'produktov' }) → '3 produkty'. */
export function countSk(count: number, forms: SlovakForms): string {
  return `${count} ${pluralSk(count, forms)}`;
}
