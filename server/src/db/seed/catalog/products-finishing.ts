import { area, bag, liquid, num, price } from './helpers.ts';
import type { ProductDraft, VariantDraft } from './types.ts';

/** Farby a laky, Dlažby a obklady, Náradie, Záhrada, Tmely a peny. */
export function finishingProducts(): ProductDraft[] {
  const out: ProductDraft[] = [];

  // Interiérové farby: variants by pack size
  for (const [name, brand, perLitre, vydatnost, sizes] of [
    ['Interiérová farba Primalex Plus biela', 'primalex', 2.3, 6, [4, 7.5, 15]],
    ['Interiérová farba Primalex Polar biela', 'primalex', 1.6, 5, [4, 7.5, 15]],
    ['Interiérová farba Primalex Mramor', 'primalex', 4.4, 7, [4, 7.5]],
    ['Interiérová farba Het Klasik biela', 'het', 1.3, 5, [7, 15, 25]],
    ['Interiérová farba Het Standard', 'het', 1.1, 4, [7, 15]],
    ['Umývateľná farba Het Profi Latex', 'het', 3.9, 8, [5, 10]],
    ['Interiérová farba Baumit Ionit', 'baumit', 6.9, 7, [5, 14]],
    ['Interiérová farba Primalex Bianco', 'primalex', 2.7, 7, [4, 7.5, 15]],
    ['Interiérová farba Het Klasik Color', 'het', 2.9, 5, [1.5, 4]],
    ['Interiérová farba Primalex Inspirace', 'primalex', 5.9, 8, [2.5, 5]],
    ['Farba na radiátory Primalex', 'primalex', 14.9, 10, [0.75, 2.5]],
  ] as [string, string, number, number, number[]][]) {
    out.push({
      name,
      brand,
      cat: 'interierove-farby',
      description: `${name} – paropriepustná maliarska farba na steny a stropy. Výdatnosť približne ${vydatnost} m² z 1 litra pri jednom nátere.`,
      variants: sizes.map((l) => liquid(l, perLitre * l * (l >= 10 ? 0.9 : 1), undefined, l < 3 ? 'plechovka' : 'vedro')),
      attrs: { vydatnost, farba: name.includes('Mramor') ? 'tónovaná' : 'biela', material: 'akrylátová disperzia' },
    });
  }

  // Fasádne farby: variants by colour group
  for (const [name, brand, gross] of [
    ['Fasádna farba Baumit NanoporColor', 'baumit', 89.9],
    ['Fasádna farba Baumit StarColor', 'baumit', 99.9],
    ['Fasádna farba Primalex akrylátová', 'primalex', 54.9],
    ['Fasádna farba Het Silikón', 'het', 69.9],
    ['Fasádna farba Ceresit CT 48 silikónová', 'ceresit', 84.9],
    ['Fasádna farba Weber.ton silikát', 'weber', 79.9],
  ] as [string, string, number][]) {
    out.push({
      name,
      brand,
      cat: 'fasadne-farby',
      description: `${name} na minerálne omietky a zatepľovacie systémy. Vodoodpudivá, odolná proti riasam a plesniam.`,
      variants: [liquid(14, gross, 'biela'), liquid(14, gross * 1.12, 'svetlé odtiene'), liquid(14, gross * 1.25, 'tmavé odtiene')],
      attrs: { vydatnost: 5, material: name.includes('silikát') ? 'silikát' : 'silikónová živica' },
    });
  }

  // Laky a lazúry: variants by shade
  for (const [name, brand, gross, shades] of [
    ['Lazúra Xyladecor Classic', 'xyladecor', 23.9, ['bezfarebná', 'borovica', 'dub', 'orech', 'palisander']],
    ['Lazúra Xyladecor Oversol', 'xyladecor', 34.9, ['bezfarebná', 'sibírsky smrekovec', 'týk', 'mahagón']],
    ['Olej na terasy Xyladecor', 'xyladecor', 29.9, ['prírodný', 'týk', 'bangkirai']],
    ['Lazúra Sadolin Classic', 'sadolin', 26.9, ['bezfarebná', 'borovica', 'orech', 'ebenové drevo']],
    ['Lazúra Sadolin Extra', 'sadolin', 31.9, ['bezfarebná', 'dub', 'mahagón', 'palisander']],
    ['Lak na parkety Sadolin Parketový', 'sadolin', 39.9, ['lesk', 'polomat', 'mat']],
    ['Vrchná farba Sadolin Superdec', 'sadolin', 44.9, ['biela', 'čierna', 'sivá', 'zelená']],
  ] as [string, string, number, string[]][]) {
    out.push({
      name,
      brand,
      cat: 'laky-a-lazury',
      description: `${name} chráni drevo pred vlhkosťou, UV žiarením a plesňami. Nanášajte štetcom v dvoch až troch vrstvách.`,
      variants: shades.map((shade, i) => liquid(2.5, gross * (i === 0 ? 1 : 1.05), shade, 'plechovka')),
      attrs: { vydatnost: 12, material: 'alkydová živica' },
    });
  }

  // Dlažby and obklady: series x colour; m² and carton
  const tile = (name: string, cat: string, perM2: number, carton: number, size: string, colour: string, text: string): ProductDraft => ({
    name,
    brand: 'rako',
    cat,
    description: `${name} vo formáte ${size} cm. ${text} Balenie obsahuje ${num(carton)} m².`,
    variants: [
      area('1 m²', 1, perM2, 22, 'm²'),
      area(`balenie ${num(carton)} m²`, carton, perM2 * carton, Math.round(22 * carton * 10) / 10, 'balenie'),
    ],
    attrs: { farba: colour, material: 'glazovaná keramika', povrch: cat === 'dlazby' ? 'matný' : 'lesklý' },
  });
  for (const [series, size, perM2, colours] of [
    ['Extra', '60 × 60', 32.9, ['sivá', 'béžová', 'antracitová', 'biela']],
    ['Taurus Granit', '30 × 30', 21.9, ['sivá', 'čierna', 'biela']],
    ['Board', '45 × 45', 24.9, ['hnedá', 'béžová']],
    ['Rebel', '80 × 80', 44.9, ['tmavosivá', 'svetlohnedá']],
    ['Cemento', '60 × 60', 29.9, ['sivá', 'tmavosivá', 'béžová']],
    ['Saloon', '20 × 120', 39.9, ['hnedá', 'béžová']],
  ] as [string, string, number, string[]][]) {
    for (const colour of colours) {
      out.push(
        tile(
          `Dlažba Rako ${series} ${size} ${colour}`,
          'dlazby',
          perM2,
          size === '30 × 30' ? 1.26 : 1.44,
          size,
          colour,
          'Rektifikovaná mrazuvzdorná gresová dlažba do interiéru aj na terasy.',
        ),
      );
    }
  }
  for (const [series, size, perM2, colours] of [
    ['Concept Plus', '20 × 40', 17.9, ['biela lesklá', 'svetlosivá', 'béžová']],
    ['Easy', '20 × 60', 19.9, ['biela', 'sivá']],
    ['Up', '30 × 60', 25.9, ['biela', 'béžová', 'sivá']],
    ['Allegro', '30 × 60', 22.9, ['biela', 'modrá']],
  ] as [string, string, number, string[]][]) {
    for (const colour of colours) {
      out.push(
        tile(
          `Obklad Rako ${series} ${size} ${colour}`,
          'obklady',
          perM2,
          1.5,
          size,
          colour,
          'Keramický obklad do kúpeľní a kuchýň, ľahko sa čistí.',
        ),
      );
    }
  }

  // Lepidlá na obklady
  for (const [name, brand, gross, sizes] of [
    ['Lepidlo na obklady Ceresit CM 11 Plus', 'ceresit', 9.99, [25]],
    ['Flexibilné lepidlo Ceresit CM 17', 'ceresit', 21.9, [5, 25]],
    ['Lepidlo Ceresit CM 12 na dlažbu', 'ceresit', 13.9, [25]],
    ['Flexibilné lepidlo Mapei Keraflex Maxi S1', 'mapei', 24.9, [25]],
    ['Lepidlo Mapei Adesilex P9', 'mapei', 12.9, [5, 25]],
    ['Flexibilné lepidlo Weber.fix Premium', 'weber', 19.9, [25]],
    ['Lepidlo Baumit Baumacol FlexUni', 'baumit', 15.9, [25]],
  ] as [string, string, number, number[]][]) {
    out.push({
      name,
      brand,
      cat: 'lepidla-na-obklady',
      description: `${name} na lepenie keramických obkladov a dlažieb v interiéri aj exteriéri. Spotreba podľa zubov hladidla 2 až 5 kg/m².`,
      variants: sizes.map((kg) => bag(kg, kg === 25 ? gross : gross * 0.32)),
      attrs: { spotreba: 3.5, material: 'cementová zmes' },
    });
  }

  // Škárovacie hmoty: variants by colour
  for (const [name, brand, gross, kg] of [
    ['Škárovacia hmota Ceresit CE 40', 'ceresit', 9.49, 2],
    ['Škárovacia hmota Mapei Ultracolor Plus', 'mapei', 11.9, 2],
    ['Škárovacia hmota Weber.fug 877', 'weber', 8.99, 2],
    ['Epoxidová škárovacia hmota Mapei Kerapoxy', 'mapei', 49.9, 3],
  ] as [string, string, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'skarovacie-hmoty',
      description: `${name} na škáry šírky 1 až 10 mm, vodoodpudivá a odolná proti plesniam.`,
      variants: ['biela', 'jasmínová', 'manhattan', 'cementovo sivá', 'antracit', 'bahama', 'hnedá'].map((c) => ({
        ...bag(kg, gross, 'vrecko'),
        name: `${c}, ${num(kg)} kg`,
      })),
      attrs: { material: name.includes('Epoxidová') ? 'epoxid' : 'cementová zmes' },
    });
  }

  // Vŕtačky a skrutkovače
  const cordless = (gross: number): VariantDraft[] => [
    { name: 'bez batérie a nabíjačky', gross: price(gross), unit: 'ks', weight: 1.7 },
    { name: '2× batéria 5,0 Ah, nabíjačka, kufor', gross: price(gross + 199), unit: 'ks', weight: 4.9 },
  ];
  for (const [name, brand, gross, volts] of [
    ['Aku vŕtací skrutkovač Makita DDF485', 'makita', 139, 18],
    ['Aku príklepový skrutkovač Makita DHP458', 'makita', 169, 18],
    ['Aku rázový uťahovák Makita DTD153', 'makita', 149, 18],
    ['Aku vŕtacie kladivo Makita DHR242', 'makita', 229, 18],
    ['Aku vŕtací skrutkovač Bosch GSR 18V-55', 'bosch', 129, 18],
    ['Aku príklepová vŕtačka Bosch GSB 18V-55', 'bosch', 149, 18],
    ['Aku vŕtacie kladivo Bosch GBH 18V-26', 'bosch', 259, 18],
  ] as [string, string, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'vrtacky-a-skrutkovace',
      description: `${name} s bezuhlíkovým motorom na ${volts} V akumulátory. Kompatibilný s celou radou akumulátorového náradia značky.`,
      variants: cordless(gross),
      attrs: { napatie: volts, hmotnost: 1.7, material: 'plast, kov' },
    });
  }
  for (const [name, brand, gross, watts] of [
    ['Vŕtacie kladivo Makita HR2470', 'makita', 139, 780],
    ['Vŕtacie kladivo Bosch GBH 2-26 DRE', 'bosch', 169, 800],
    ['Príklepová vŕtačka Makita HP1630', 'makita', 69, 710],
    ['Búracie kladivo Bosch GSH 5', 'bosch', 499, 1100],
  ] as [string, string, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'vrtacky-a-skrutkovace',
      description: `${name} s príkonom ${watts} W. Dodávané v kufri s bočnou rukoväťou a hĺbkovým dorazom.`,
      variants: [{ name: 'v kufri', gross: price(gross), unit: 'ks', weight: 3 }],
      attrs: { prikon: watts, napatie: 230, hmotnost: 2.9 },
    });
  }

  // Uhlové brúsky
  for (const [name, brand, gross, watts, disc] of [
    ['Uhlová brúska Makita GA5030R', 'makita', 59, 720, 125],
    ['Uhlová brúska Makita GA9020', 'makita', 129, 2200, 230],
    ['Uhlová brúska Bosch GWS 750-125', 'bosch', 64, 750, 125],
    ['Uhlová brúska Bosch GWS 22-230 JH', 'bosch', 159, 2200, 230],
    ['Aku uhlová brúska Makita DGA504', 'makita', 189, 0, 125],
    ['Aku uhlová brúska Bosch GWS 18V-10', 'bosch', 179, 0, 125],
  ] as [string, string, number, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'uhlove-brusky',
      description: `${name} na kotúče priemeru ${disc} mm na rezanie a brúsenie kovu, obkladov a betónu.`,
      variants: watts === 0 ? cordless(gross) : [{ name: 'samostatne', gross: price(gross), unit: 'ks', weight: disc > 200 ? 5.2 : 1.9 }],
      attrs: watts === 0 ? { napatie: 18, sirka: disc } : { prikon: watts, napatie: 230, sirka: disc },
    });
  }

  // Murárske náradie
  const tools: [string, string | null, VariantDraft[], string][] = [
    [
      'Murárska lyžica',
      'stanley',
      [160, 180, 200].map((mm) => ({ name: `${mm} mm`, gross: price(6 + mm / 40), unit: 'ks', weight: 0.3 })),
      'Kovaná oceľová lyžica s drevenou rúčkou.',
    ],
    [
      'Zubové hladidlo nerezové',
      'stanley',
      [6, 8, 10, 12].map((z) => ({ name: `zub ${z} mm`, gross: price(11.9), unit: 'ks', weight: 0.6 })),
      'Hladidlo 280 × 130 mm na nanášanie lepidla.',
    ],
    [
      'Gumové hladidlo na škárovanie',
      null,
      [{ name: '250 × 100 mm', gross: price(7.49), unit: 'ks', weight: 0.4 }],
      'Mäkká guma na zatieranie škárovacej hmoty.',
    ],
    [
      'Murárske vedro',
      null,
      [12, 20, 40].map((l) => ({ name: `${l} l`, gross: price(2 + l / 8), unit: 'ks', weight: 0.5 })),
      'Pevné plastové vedro s kovovou rúčkou.',
    ],
    [
      'Miešadlo na malty M14',
      null,
      [{ name: '100 × 600 mm', gross: price(9.99), unit: 'ks', weight: 0.8 }],
      'Miešadlo do vŕtačky na malty a lepidlá do 30 kg.',
    ],
    [
      'Hliníková lata',
      'stanley',
      [1500, 2000, 2500].map((mm) => ({ name: `${num(mm / 1000)} m`, gross: price(9 + mm / 160), unit: 'ks', weight: mm / 1500 })),
      'Stahovacia lata s rukoväťou na omietky a potery.',
    ],
    ['Murárska šnúra', null, [{ name: '50 m', gross: price(2.99), unit: 'ks', weight: 0.1 }], 'Polyesterová šnúra na vytyčovanie muriva.'],
    [
      'Fasádna kelňa nerezová',
      'stanley',
      [{ name: '280 × 120 mm', gross: price(14.9), unit: 'ks', weight: 0.5 }],
      'Nerezové hladidlo na tenkovrstvové omietky.',
    ],
    [
      'Fúrik stavebný 100 l',
      null,
      [
        { name: 'pneumatické koleso', gross: price(54.9), unit: 'ks', weight: 16 },
        { name: 'bezdušové koleso', gross: price(64.9), unit: 'ks', weight: 17 },
      ],
      'Stavebný fúrik s pozinkovanou vaňou.',
    ],
    [
      'Ručná píla na pórobetón',
      'stanley',
      [{ name: '550 mm', gross: price(21.9), unit: 'ks', weight: 0.7 }],
      'Píla s karbidovými zubami na rezanie tvárnic Ytong.',
    ],
  ];
  for (const [name, brand, variants, text] of tools) {
    out.push({ name, brand, cat: 'murarske-naradie', description: `${name}. ${text}`, variants, attrs: { material: 'oceľ, plast' } });
  }

  // Meradlá
  out.push({
    name: 'Vodováha Stanley FatMax',
    brand: 'stanley',
    cat: 'meradla',
    description: 'Hliníková vodováha s tromi libelami a presnosťou 0,5 mm/m.',
    variants: [600, 800, 1000, 1200, 1800].map((mm) => ({
      name: `${mm / 10} cm`,
      gross: price(14 + mm / 50),
      unit: 'ks',
      weight: mm / 1000,
    })),
    attrs: { material: 'hliník' },
  });
  for (const [name, brand, variants] of [
    [
      'Zvinovací meter Stanley PowerLock',
      'stanley',
      [3, 5, 8].map((m) => ({ name: `${m} m`, gross: price(5 + m * 1.5), unit: 'ks', weight: 0.2 })),
    ],
    ['Laserový diaľkomer Bosch GLM 50-27 C', 'bosch', [{ name: 'samostatne', gross: price(149), unit: 'ks', weight: 0.2 }]],
    [
      'Krížový laser Bosch GLL 3-80',
      'bosch',
      [
        { name: 'v kufri', gross: price(399), unit: 'ks', weight: 1.2 },
        { name: 'so statívom BT 150', gross: price(469), unit: 'ks', weight: 3.2 },
      ],
    ],
    ['Krížový laser Makita SK106DZ', 'makita', [{ name: 'bez batérie', gross: price(219), unit: 'ks', weight: 0.8 }]],
    ['Uholník murársky', null, [{ name: '600 mm', gross: price(12.9), unit: 'ks', weight: 0.9 }]],
  ] as [string, string | null, VariantDraft[]][]) {
    out.push({ name, brand, cat: 'meradla', description: `${name} na presné meranie na stavbe.`, variants, attrs: {} });
  }

  // Zámková dlažba: variants by colour, sold per m² and per pallet
  for (const [name, brand, perM2, cm, palletM2] of [
    ['Zámková dlažba Premac Klasiko', 'premac', 13.9, 6, 10.8],
    ['Zámková dlažba Premac Uni', 'premac', 12.9, 6, 11.3],
    ['Zámková dlažba Premac Kocka 10 × 10', 'premac', 16.9, 6, 10],
    ['Zámková dlažba Premac Klasiko 8 cm', 'premac', 17.9, 8, 8.6],
    ['Zámková dlažba Semmelrock Citytop', 'semmelrock', 34.9, 8, 8.3],
    ['Zámková dlažba Semmelrock Castello', 'semmelrock', 29.9, 6, 9.6],
    ['Zámková dlažba Semmelrock Bradstone Travero', 'semmelrock', 44.9, 4, 12],
  ] as [string, string, number, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'zamkova-dlazba',
      description: `${name} hrúbky ${cm} cm na chodníky, terasy${cm >= 8 ? ' a príjazdové cesty pre osobné autá' : ''}. Predávame po m² aj po celých paletách (${num(palletM2)} m²).`,
      variants: ['sivá', 'červená', 'antracit']
        .flatMap((c, i) => [
          area(`${c}, 1 m²`, 1, perM2 * (1 + i * 0.12), cm * 22, 'm²'),
          area(
            `${c}, paleta ${num(palletM2)} m²`,
            palletM2,
            perM2 * (1 + i * 0.12) * palletM2 * 0.95,
            Math.round(cm * 22 * palletM2 + 25),
            'paleta',
          ),
        ])
        .filter((_, i) => i < 4 || name.includes('Klasiko')),
      attrs: { hrubka: cm * 10, material: 'betón', pevnost: 50 },
    });
  }

  // Obrubníky
  for (const [name, brand, gross, dims] of [
    ['Záhradný obrubník Premac 100 × 5 × 20 cm', 'premac', 3.49, [1000, 50, 200]],
    ['Záhradný obrubník Premac 50 × 5 × 20 cm', 'premac', 2.19, [500, 50, 200]],
    ['Cestný obrubník Premac 100 × 15 × 25 cm', 'premac', 7.99, [1000, 150, 250]],
    ['Nájazdový obrubník Premac 100 × 15 × 15 cm', 'premac', 6.99, [1000, 150, 150]],
    ['Palisáda Semmelrock 12 × 12 × 40 cm', 'semmelrock', 4.49, [120, 120, 400]],
  ] as [string, string, number, number[]][]) {
    out.push({
      name,
      brand,
      cat: 'obrubniky',
      description: `${name} z vibrolisovaného betónu na ohraničenie chodníkov a záhonov.`,
      variants: [
        { name: 'sivý', gross: price(gross), unit: 'ks', weight: 20 },
        { name: 'červený', gross: price(gross * 1.12), unit: 'ks', weight: 20 },
      ],
      attrs: { dlzka: dims[0]!, sirka: dims[1]!, vyska: dims[2]!, material: 'betón' },
    });
  }

  // Substráty
  for (const [name, perLitre] of [
    ['Záhradnícky substrát univerzálny', 0.11],
    ['Substrát na trávnik', 0.12],
    ['Mulčovacia kôra', 0.09],
    ['Kremičitý piesok do pieskoviska', 0.15],
  ] as [string, number][]) {
    out.push({
      name,
      brand: null,
      cat: 'substraty',
      description: `${name} v praktických vreciach.`,
      variants: [20, 50, 70].map((l) => liquid(l, perLitre * l, undefined, 'vrece')),
      attrs: {},
    });
  }

  // Montážne peny
  for (const [name, gross, kind] of [
    ['Montážna pena Den Braven trubičková', 5.99, 'trubičková'],
    ['Montážna pena Den Braven pištoľová', 6.99, 'pištoľová'],
    ['Nízkoexpanzná pena Den Braven Profi', 8.49, 'pištoľová'],
    ['Zimná montážna pena Den Braven', 7.99, 'pištoľová'],
    ['Protipožiarna pena Den Braven B1', 12.9, 'pištoľová'],
    ['Montážna pena Ceresit TS 61', 7.49, 'trubičková'],
    ['Čistič PUR peny Den Braven', 4.49, 'čistič'],
  ] as [string, number, string][]) {
    const brand = name.includes('Ceresit') ? 'ceresit' : 'den-braven';
    out.push({
      name,
      brand,
      cat: 'montazne-peny',
      description: `${name} (${kind}) na osadzovanie okien a dverí, vyplnenie dutín a prestupov.`,
      variants:
        kind === 'čistič'
          ? [{ name: '500 ml', gross: price(gross), unit: 'dóza', weight: 0.5, base: { amount: 0.5, unit: 'l' } }]
          : [
              { name: '750 ml', gross: price(gross), unit: 'dóza', weight: 1, base: { amount: 0.75, unit: 'l' } },
              { name: 'kartón 12 × 750 ml', gross: price(gross * 12 * 0.9), unit: 'kartón', weight: 12, base: { amount: 9, unit: 'l' } },
            ],
      attrs: { material: 'polyuretán' },
    });
  }

  // Silikóny a tmely
  for (const [name, gross, colours] of [
    ['Sanitárny silikón Den Braven', 5.49, ['biela', 'transparentná', 'šedá', 'béžová']],
    ['Univerzálny silikón Den Braven', 4.49, ['biela', 'transparentná', 'čierna']],
    ['Akrylátový tmel Den Braven', 2.49, ['biela', 'šedá']],
    ['Lepidlo Den Braven Mamut Glue', 9.99, ['biela', 'transparentná']],
    ['Tmel na strechy Den Braven', 6.49, ['čierna', 'tehlovočervená']],
    ['Silikón na kameň Den Braven', 8.99, ['transparentná', 'šedá']],
  ] as [string, number, string[]][]) {
    out.push({
      name,
      brand: 'den-braven',
      cat: 'silikony-a-tmely',
      description: `${name} v kartuši 280 ml na aplikáciu vytláčacou pištoľou.`,
      variants: colours.map((c) => ({
        name: `${c}, 280 ml`,
        gross: price(gross),
        unit: 'kartuša',
        weight: 0.4,
        base: { amount: 0.28, unit: 'l' },
      })),
      attrs: { material: name.includes('Akrylátový') ? 'akrylát' : 'silikón' },
    });
  }

  return out;
}
