/** Attribute definitions; numeric values are stored in thousandths. use 0: internal, not shown. */
export const ATTRIBUTES = {
  hrubka: { name: 'Hrúbka', unit: 'mm', use: 1 },
  sirka: { name: 'Šírka', unit: 'mm', use: 1 },
  dlzka: { name: 'Dĺžka', unit: 'mm', use: 1 },
  vyska: { name: 'Výška', unit: 'mm', use: 1 },
  hmotnost: { name: 'Hmotnosť', unit: 'kg', use: 1 },
  pevnost: { name: 'Pevnosť v tlaku', unit: 'MPa', use: 1 },
  lambda: { name: 'Súčiniteľ tepelnej vodivosti λ', unit: 'W/(m·K)', use: 1 },
  spotreba: { name: 'Spotreba', unit: 'kg/m²', use: 1 },
  zrnitost: { name: 'Zrnitosť', unit: 'mm', use: 1 },
  vydatnost: { name: 'Výdatnosť', unit: 'm²/l', use: 1 },
  prikon: { name: 'Príkon', unit: 'W', use: 1 },
  napatie: { name: 'Napätie', unit: 'V', use: 1 },
  farba: { name: 'Farba', unit: null, use: 1 },
  material: { name: 'Materiál', unit: null, use: 1 },
  trieda: { name: 'Trieda reakcie na oheň', unit: null, use: 1 },
  povrch: { name: 'Povrch', unit: null, use: 1 },
  paleta: { name: 'Počet kusov na palete', unit: 'ks', use: 0 },
  colny: { name: 'Colný sadzobník', unit: null, use: 0 },
} as const satisfies Record<string, { name: string; unit: string | null; use: 0 | 1 }>;

export type AttributeKey = keyof typeof ATTRIBUTES;
