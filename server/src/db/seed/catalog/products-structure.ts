import { area, bag, bagPallet, length, num, pallet, piece, price } from './helpers.ts';
import type { ProductDraft } from './types.ts';

/** Hrubá stavba, Suché stavby. */
export function structureProducts(): ProductDraft[] {
  const out: ProductDraft[] = [];

  // Tehly: [name suffix, wall thickness mm, height mm, length mm, strength MPa, piece €, kg, per pallet]
  const bricks: [string, number, number, number, number, number, number, number][] = [
    ['8 P+D', 80, 238, 500, 15, 1.29, 6.2, 120],
    ['11,5 P+D', 115, 238, 500, 15, 1.59, 8.4, 100],
    ['14 P+D', 140, 238, 500, 15, 1.89, 9.8, 80],
    ['17,5 P+D', 175, 238, 500, 15, 2.39, 12.6, 60],
    ['24 P+D', 240, 238, 375, 15, 2.59, 12.9, 60],
    ['25 Profi', 250, 249, 375, 10, 2.79, 12.1, 60],
    ['30 Profi', 300, 249, 250, 10, 2.69, 11.8, 80],
    ['38 Profi', 380, 249, 250, 10, 3.39, 14.2, 60],
    ['44 Profi', 440, 249, 250, 10, 3.99, 16.6, 48],
    ['30 T Profi', 300, 249, 250, 8, 4.49, 10.9, 80],
    ['38 T Profi', 380, 249, 250, 8, 5.69, 13.8, 60],
    ['44 T Profi', 440, 249, 250, 8, 6.49, 16.0, 48],
    ['30 Profi Dryfix', 300, 249, 250, 10, 2.99, 11.8, 80],
    ['38 Profi Dryfix', 380, 249, 250, 10, 3.69, 14.2, 60],
    ['25 AKU', 250, 238, 375, 20, 3.29, 24.8, 48],
    ['30 Profi 1/2', 300, 249, 125, 10, 2.29, 6.1, 120],
    ['38 Profi 1/2', 380, 249, 125, 10, 2.79, 7.3, 96],
    ['44 Profi 1/2', 440, 249, 125, 10, 3.29, 8.5, 80],
    ['30 R Profi rohová', 300, 249, 250, 10, 3.49, 12.4, 60],
  ];
  for (const [suffix, thick, height, len, mpa, gross, kg, perPallet] of bricks) {
    const name = `Tehla Porotherm ${suffix}`;
    const filled = suffix.includes(' T ');
    out.push({
      name,
      brand: 'porotherm',
      cat: 'tehly',
      description:
        `${name} je pálená brúsená tehla na murivo hrúbky ${thick} mm. ` +
        (filled
          ? 'Dutiny sú vyplnené minerálnou vlnou, preto murivo splní prísne tepelnotechnické požiadavky bez ďalšieho zateplenia. '
          : 'Presné brúsenie umožňuje murovať na tenkú škáru, čím sa skracuje čas výstavby a šetrí malta. ') +
        'Na stavbu dodávame po kusoch aj na celé palety.',
      variants: [piece(gross, kg), pallet(perPallet, gross, kg)],
      attrs: {
        sirka: thick,
        dlzka: len,
        vyska: height,
        pevnost: mpa,
        hmotnost: kg,
        material: 'pálená hlina',
        trieda: 'A1',
        paleta: perPallet,
        colny: '6904 10 00',
      },
    });
  }

  // Wienerberger: solid and facing bricks
  out.push({
    name: 'Plná pálená tehla Wienerberger CP 290 × 140 × 65 mm',
    brand: 'wienerberger',
    cat: 'tehly',
    description:
      'Klasická plná pálená tehla na murovanie komínov, pilierov, základov a na opravy starého muriva. Mrazuvzdorná, s vysokou pevnosťou.',
    variants: [piece(0.49, 3.6), pallet(280, 0.49, 3.6)],
    attrs: { sirka: 140, dlzka: 290, vyska: 65, pevnost: 20, hmotnost: 3.6, material: 'pálená hlina', trieda: 'A1', paleta: 280 },
  });
  for (const [series, gross] of [
    ['Terca Agora', 1.39],
    ['Terca Forum', 1.69],
    ['Terca Klinker', 2.19],
  ] as [string, number][]) {
    const name = `Lícová tehla Wienerberger ${series}`;
    out.push({
      name,
      brand: 'wienerberger',
      cat: 'tehly',
      description: `${name} na režné murivo fasád, plotov a záhradnej architektúry. Farebne stála, nasiakavosť pod 6 %, netreba ju omietať.`,
      variants: ['červená', 'žltá', 'antracitová'].map((color, i) => ({ ...piece(gross * (1 + i * 0.1), 2.2), name: `${color}, 1 ks` })),
      attrs: { sirka: 100, dlzka: 240, vyska: 71, pevnost: 35, hmotnost: 2.2, material: 'pálená hlina', povrch: 'hladký', trieda: 'A1' },
    });
  }

  // Tvárnice Ytong
  const blocks: [string, number, number, number, number][] = [
    ['Lambda YQ 300', 300, 4.99, 17.5, 40],
    ['Lambda YQ 375', 375, 6.19, 21.9, 32],
    ['Lambda YQ 450', 450, 7.39, 26.3, 24],
    ['Lambda YQ 500', 500, 8.19, 29.2, 24],
    ['Klasik 100', 100, 1.79, 7.1, 120],
    ['Klasik 125', 125, 2.19, 8.9, 100],
    ['Klasik 150', 150, 2.59, 10.6, 80],
    ['Klasik 200', 200, 3.39, 14.2, 60],
    ['Klasik 250', 250, 4.19, 17.8, 48],
    ['Klasik 300', 300, 4.99, 21.3, 40],
    ['Komfort 375', 375, 5.59, 23.5, 32],
    ['Statik 250', 250, 4.79, 22.5, 48],
  ];
  for (const [suffix, thick, gross, kg, perPallet] of blocks) {
    const name = `Tvárnica Ytong ${suffix}`;
    out.push({
      name,
      brand: 'ytong',
      cat: 'tvarnice',
      description:
        `${name} je pórobetónová tvárnica hrúbky ${thick} mm s perom a drážkou. ` +
        'Ľahko sa reže aj drážkuje, murujete ju na tenkovrstvovú maltu Ytong. Vhodná na rodinné domy aj priečky.',
      variants: [piece(gross, kg), pallet(perPallet, gross, kg)],
      attrs: {
        sirka: thick,
        dlzka: 599,
        vyska: 249,
        pevnost: suffix.startsWith('Statik') ? 5 : 2.5,
        hmotnost: kg,
        material: 'pórobetón',
        trieda: 'A1',
        paleta: perPallet,
      },
    });
  }

  // Komíny Schiedel: one product per flue diameter, variants by chimney height
  for (const [line, diameter, perMetre] of [
    ['Rondo Plus', 14, 92],
    ['Rondo Plus', 16, 98],
    ['Rondo Plus', 18, 104],
    ['Rondo Plus', 20, 112],
    ['UNI Advanced', 16, 139],
    ['Absolut', 14, 125],
  ] as [string, number, number][]) {
    const name = `Komínový systém Schiedel ${line} ${diameter} cm`;
    out.push({
      name,
      brand: 'schiedel',
      cat: 'kominove-systemy',
      description:
        `${name} je kompletná komínová zostava s keramickou vložkou priemeru ${diameter} cm, tvárnicami, ` +
        'izoláciou, vymetacími dvierkami a krycou doskou. Vhodná pre kotly na tuhé palivo, plyn aj olej.',
      variants: [5, 6, 7, 8, 9, 10].map((m) => ({
        name: `výška ${m} m`,
        gross: price(perMetre * m + 180),
        unit: 'súprava',
        weight: m * 95,
      })),
      attrs: { sirka: 360, material: 'keramika, ľahčený betón', trieda: 'A1' },
    });
  }

  // Cement
  for (const [name, brand, gross, mpa] of [
    ['Cement portlandský CEM I 42,5 R', 'holcim', 7.49, 42.5],
    ['Cement zmesový CEM II/B-M 32,5 R', 'holcim', 6.29, 32.5],
    ['Cement portlandský troskový CEM II/A-S 42,5 N', 'holcim', 6.99, 42.5],
    ['Cement biely CEM I 52,5 R', 'holcim', 14.9, 52.5],
    ['Cement Baumit Quick rýchlotuhnúci', 'baumit', 9.89, 30],
    ['Cement murársky MC 12,5', 'holcim', 5.49, 12.5],
  ] as [string, string, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'cement',
      description: `${name} na výrobu betónov, mált a poterov. Balenie vo vreciach 25 kg, pri odbere celej palety výrazná zľava.`,
      variants: [bag(25, gross), bagPallet(48, 25, gross)],
      attrs: { pevnost: mpa, hmotnost: 25, material: 'cement' },
    });
  }

  // Suché betónové zmesi
  for (const [name, brand, gross, spotreba] of [
    ['Betón Baumit B20', 'baumit', 4.99, 20],
    ['Murovacia malta Baumit MM 50', 'baumit', 4.49, 18],
    ['Poter Baumit Estrich E 225', 'baumit', 5.29, 20],
    ['Betón Weber.dur B 25', 'weber', 5.49, 20],
    ['Murovacia malta Weber.mix 5', 'weber', 4.29, 18],
    ['Malta Ytong na tenké škáry', 'ytong', 11.9, 3],
    ['Malta Porotherm Profi Dryfix pena', 'porotherm', 18.9, 0.5],
    ['Betón Baumit rýchly Blitz', 'baumit', 8.99, 20],
  ] as [string, string, number, number][]) {
    const foam = name.includes('pena');
    out.push({
      name,
      brand,
      cat: 'suche-betonove-zmesi',
      description: foam
        ? `${name} je lepiaca pena na murovanie brúsených tehál Porotherm Dryfix bez vody a miešania. Jedna dóza vystačí približne na 8 m² muriva.`
        : `${name} je priemyselne vyrobená suchá zmes; stačí ju zamiešať s vodou. Stála kvalita, jednoduché spracovanie miešačkou aj ručne.`,
      variants: foam
        ? [{ name: '750 ml', gross: price(gross), unit: 'dóza', weight: 1.1, base: { amount: 0.75, unit: 'l' } }]
        : [
            bag(name.includes('Ytong') ? 20 : 25, gross),
            bagPallet(name.includes('Ytong') ? 54 : 48, name.includes('Ytong') ? 20 : 25, gross),
          ],
      attrs: { spotreba, material: foam ? 'polyuretán' : 'cementová zmes' },
    });
  }

  // Preklady: variants by length
  for (const [name, brand, perMetre, width, kgPerMetre] of [
    ['Preklad Porotherm KP 7', 'porotherm', 7.9, 70, 13],
    ['Preklad Porotherm KP 11,5', 'porotherm', 12.9, 115, 22],
    ['Preklad Porotherm KP 14,5', 'porotherm', 15.9, 145, 28],
    ['Preklad Ytong NOP 250', 'ytong', 21.9, 250, 38],
  ] as [string, string, number, number, number][]) {
    const lengths = brand === 'ytong' ? [1300, 1500, 1750, 2000, 2500] : [1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750, 3000];
    out.push({
      name,
      brand,
      cat: 'preklady',
      description: `${name} je nosný preklad nad okenné a dverné otvory šírky ${width} mm. Dĺžku volíme podľa svetlosti otvoru, uloženie je minimálne 125 mm na každej strane.`,
      variants: lengths.map((mm) => length(mm, perMetre, kgPerMetre)),
      attrs: { sirka: width, material: brand === 'ytong' ? 'pórobetón' : 'pálená hlina', trieda: 'A1' },
    });
  }

  // Stropné systémy
  out.push({
    name: 'Stropný nosník Porotherm POT',
    brand: 'porotherm',
    cat: 'stropne-systemy',
    description: 'Keramobetónový nosník Porotherm POT pre stropy s vložkami Miako. Dodávame v dĺžkach po 25 cm podľa rozponu stropu.',
    variants: [1750, 2250, 2750, 3250, 3750, 4250, 4750, 5250, 5750, 6250].map((mm) => length(mm, 6.9, 17.5)),
    attrs: { sirka: 160, vyska: 175, material: 'keramika, betón, oceľ' },
  });
  for (const [h, gross, kg] of [
    [8, 1.19, 5.7],
    [15, 1.79, 7.4],
    [19, 1.99, 8.6],
    [23, 2.39, 9.9],
  ] as const) {
    const name = `Stropná vložka Porotherm Miako ${h}/62,5`;
    out.push({
      name,
      brand: 'porotherm',
      cat: 'stropne-systemy',
      description: `${name} je keramická vložka výšky ${h} cm do stropov s nosníkmi POT pri osovej vzdialenosti 62,5 cm.`,
      variants: [piece(gross, kg), pallet(h > 15 ? 80 : 120, gross, kg)],
      attrs: { vyska: h * 10, sirka: 625, hmotnost: kg, material: 'pálená hlina' },
    });
  }

  // Sadrokartónové dosky
  const boards: [string, string, string, number, number][] = [
    ['Knauf GKB 12,5 mm', 'knauf', 'štandardná', 12.5, 3.2],
    ['Knauf GKF 12,5 mm', 'knauf', 'protipožiarna', 12.5, 4.1],
    ['Knauf GKBI 12,5 mm', 'knauf', 'impregnovaná', 12.5, 4.3],
    ['Knauf GKFI 12,5 mm', 'knauf', 'protipožiarna impregnovaná', 12.5, 5.2],
    ['Knauf Diamant 12,5 mm', 'knauf', 'vysokopevnostná', 12.5, 7.9],
    ['Knauf GKB 9,5 mm', 'knauf', 'štandardná', 9.5, 3.0],
    ['Rigips RB 12,5 mm', 'rigips', 'štandardná', 12.5, 3.1],
    ['Rigips RF 12,5 mm', 'rigips', 'protipožiarna', 12.5, 4.0],
    ['Rigips RBI 12,5 mm', 'rigips', 'impregnovaná', 12.5, 4.2],
    ['Rigips RFI 15 mm', 'rigips', 'protipožiarna impregnovaná', 15, 5.9],
    ['Rigips Habito 12,5 mm', 'rigips', 'vysokopevnostná', 12.5, 8.4],
    ['Rigips Rigiton 12,5 mm', 'rigips', 'akustická perforovaná', 12.5, 19.9],
  ];
  for (const [suffix, brand, kind, mm, perM2] of boards) {
    const name = `Sadrokartónová doska ${suffix}`;
    const sizes: [number, number][] = suffix.includes('Rigiton')
      ? [[1200, 2000]]
      : [
          [1250, 2000],
          [1250, 2600],
          [1250, 3000],
        ];
    out.push({
      name,
      brand,
      cat: 'sadrokartonove-dosky',
      description: `${name} je ${kind} doska na priečky, predsteny a podhľady. Montuje sa na oceľové profily skrutkami do sadrokartónu, škáry sa tmelia a vystužujú páskou.`,
      variants: sizes.map(([w, l]) => {
        const m2 = (w * l) / 1e6;
        return area(`${w} × ${l} mm`, m2, perM2 * m2, Math.round(m2 * mm * 0.85 * 10) / 10);
      }),
      attrs: {
        hrubka: mm,
        sirka: sizes[0]![0],
        farba: kind.includes('impregnovaná') ? 'zelená' : kind.includes('protipožiarna') ? 'ružová' : 'biela',
        material: 'sadra, kartón',
        trieda: kind.includes('protipožiarna') ? 'A2-s1,d0' : 'A2-s1,d0',
      },
    });
  }

  // Profily
  for (const [type, width, perMetre, brand] of [
    ['CW 50', 50, 1.29, 'knauf'],
    ['CW 75', 75, 1.59, 'knauf'],
    ['CW 100', 100, 1.99, 'knauf'],
    ['UW 50', 50, 1.09, 'knauf'],
    ['UW 75', 75, 1.39, 'knauf'],
    ['UW 100', 100, 1.69, 'knauf'],
    ['CD 60', 60, 1.05, 'rigips'],
    ['UD 28', 28, 0.79, 'rigips'],
    ['R-CW 75 Pro', 75, 1.49, 'rigips'],
    ['R-UW 75 Pro', 75, 1.29, 'rigips'],
  ] as [string, number, number, string][]) {
    const name = `Profil ${type} ${brand === 'knauf' ? 'Knauf' : 'Rigips'}`;
    out.push({
      name,
      brand,
      cat: 'profily-sdk',
      description: `${name} z pozinkovaného plechu hrúbky 0,6 mm pre konštrukcie sadrokartónových priečok a podhľadov.`,
      variants: [2750, 3000, 4000].map((mm) => length(mm, perMetre, 0.6)),
      attrs: { sirka: width, hrubka: 0.6, material: 'pozinkovaná oceľ' },
    });
  }

  // Príslušenstvo SDK
  const accessories: [string, string | null, ProductDraft['variants'], string][] = [
    [
      'Skrutky do sadrokartónu TN 25',
      'knauf',
      [
        { name: '1000 ks', gross: price(7.9), unit: 'balenie', weight: 1.2, base: { amount: 1000, unit: 'ks' } },
        { name: '250 ks', gross: price(2.49), unit: 'balenie', weight: 0.3, base: { amount: 250, unit: 'ks' } },
      ],
      'Samorezné skrutky s trubkovou hlavou na jednoduché opláštenie.',
    ],
    [
      'Skrutky do sadrokartónu TN 35',
      'knauf',
      [{ name: '1000 ks', gross: price(9.9), unit: 'balenie', weight: 1.6, base: { amount: 1000, unit: 'ks' } }],
      'Skrutky na dvojité opláštenie sadrokartónových priečok.',
    ],
    ['Tmel Knauf Uniflott', 'knauf', [bag(5, 11.9, 'vrece'), bag(25, 39.9)], 'Vysokopevnostný sadrový tmel na škáry bez výstužnej pásky.'],
    ['Tmel Rigips Vario', 'rigips', [bag(5, 9.9), bag(25, 32.9)], 'Sadrový tmel na škárovanie dosiek Rigips s výstužnou páskou.'],
    [
      'Výstužná páska zo sklenej tkaniny 50 mm',
      null,
      [
        { name: '45 m', gross: price(3.99), unit: 'rolka', weight: 0.2, base: { amount: 45, unit: 'm' } },
        { name: '90 m', gross: price(6.99), unit: 'rolka', weight: 0.4, base: { amount: 90, unit: 'm' } },
      ],
      'Samolepiaca mriežková páska na vystuženie škár sadrokartónu.',
    ],
    [
      'Priamy záves pre CD 60',
      'rigips',
      [{ name: '100 ks', gross: price(19.9), unit: 'balenie', weight: 4, base: { amount: 100, unit: 'ks' } }],
      'Záves na kotvenie podhľadov s profilmi CD 60 k stropu.',
    ],
    [
      'Tesniaca páska pod profily 50 mm',
      'knauf',
      [{ name: '30 m', gross: price(4.49), unit: 'rolka', weight: 0.3, base: { amount: 30, unit: 'm' } }],
      'Penová páska, ktorá akusticky oddelí profily od okolitých konštrukcií.',
    ],
    [
      'Rohová lišta hliníková',
      null,
      [length(2500, 0.79, 0.1), length(3000, 0.79, 0.1)],
      'Ochrana vonkajších rohov sadrokartónových konštrukcií.',
    ],
  ];
  for (const [name, brand, variants, text] of accessories) {
    out.push({ name, brand, cat: 'prislusenstvo-sdk', description: `${name}. ${text}`, variants, attrs: {} });
  }

  // Sadrovláknité dosky
  for (const [mm, perM2, kind] of [
    [10, 11.9, 'stenová'],
    [12.5, 13.9, 'stenová'],
    [15, 16.9, 'stenová'],
    [25, 34.9, 'podlahový prvok'],
  ] as const) {
    const name = kind === 'stenová' ? `Sadrovláknitá doska Fermacell ${num(mm)} mm` : `Podlahový prvok Fermacell 2E22 ${mm} mm`;
    const sizes: [number, number][] =
      kind === 'stenová'
        ? [
            [1000, 1500],
            [1249, 2540],
          ]
        : [[500, 1500]];
    out.push({
      name,
      brand: 'fermacell',
      cat: 'sadrovlaknite-dosky',
      description: `${name} je homogénna doska zo sadry a celulózových vlákien s vysokou pevnosťou a odolnosťou proti nárazu. Na jednu skrutku unesie až 50 kg.`,
      variants: sizes.map(([w, l]) => {
        const m2 = (w * l) / 1e6;
        return area(`${w} × ${l} mm`, m2, perM2 * m2, Math.round(m2 * mm * 1.15 * 10) / 10);
      }),
      attrs: { hrubka: mm, material: 'sadra, celulózové vlákna', trieda: 'A2-s1,d0' },
    });
  }

  return out;
}
