import { area, bag, bagPallet, liquid, num, price } from './helpers.ts';
import type { ProductDraft, VariantDraft } from './types.ts';

/** A pack of insulation boards or rolls covering `m2`, and a pallet of `packs` such packs. */
function insulationPacks(m2: number, perM2: number, kgPerM2: number, packs: number, unit: string): VariantDraft[] {
  return [
    area(`balík ${num(Math.round(m2 * 100) / 100)} m²`, m2, perM2 * m2, Math.round(kgPerM2 * m2 * 10) / 10, unit),
    area(`paleta (${packs} balíkov)`, m2 * packs, perM2 * m2 * packs * 0.94, Math.round(kgPerM2 * m2 * packs + 25), 'paleta'),
  ];
}

/** Izolácie, Strechy, Omietky a fasády. */
export function envelopeProducts(): ProductDraft[] {
  const out: ProductDraft[] = [];

  // Minerálna vlna: line x thickness (cm)
  const wool: [string, string, number[], number, number, string][] = [
    ['Isover Domo', 'isover', [5, 10, 12, 15, 20], 0.039, 0.62, 'sklená vlna v rolke do podkrovia a medzi krokvy'],
    ['Isover Uni', 'isover', [5, 8, 10, 12, 16], 0.035, 0.95, 'univerzálna doska zo sklenej vlny do priečok, podkrovia a podláh'],
    [
      'Isover TF Profi',
      'isover',
      [5, 10, 14, 16, 20],
      0.036,
      3.9,
      'tuhá fasádna doska z kamennej vlny do kontaktných zatepľovacích systémov',
    ],
    [
      'Knauf Insulation Unifit 035',
      'knauf',
      [5, 8, 10, 12, 16],
      0.035,
      0.99,
      'univerzálna doska zo sklenej vlny s technológiou Ecose bez formaldehydu',
    ],
    ['Rockwool Airrock LD', 'rockwool', [5, 8, 10, 12, 15], 0.035, 1.15, 'ľahká doska z kamennej vlny do odvetraných fasád a podkrovia'],
  ];
  for (const [line, brand, thicknesses, lambda, perCmM2, text] of wool) {
    for (const cm of thicknesses) {
      const name = `Minerálna vlna ${line} ${cm} cm`;
      const perM2 = Math.max(1.2, perCmM2 * cm);
      const m2 = line.includes('Domo') ? Math.round((120 / cm) * 10) / 10 : Math.round((60 / cm) * 10) / 10;
      out.push({
        name,
        brand,
        cat: 'mineralna-vlna',
        description: `${name} je ${text}. Nehorľavá izolácia (trieda A1) so súčiniteľom tepelnej vodivosti λ = ${num(lambda)} W/(m·K), paropriepustná a s výbornými akustickými vlastnosťami.`,
        variants: insulationPacks(m2, perM2, line.includes('TF') ? 1.4 * cm : 0.2 * cm, 24, line.includes('Domo') ? 'rolka' : 'balík'),
        attrs: {
          hrubka: cm * 10,
          lambda,
          material: line.includes('Domo') || line.includes('Uni') ? 'sklená vlna' : 'kamenná vlna',
          trieda: 'A1',
          colny: '6806 10 00',
        },
      });
    }
  }

  // Polystyrén EPS
  const eps: [string, string, number[], number, number, string][] = [
    [
      'Austrotherm EPS 70 F',
      'austrotherm',
      [5, 8, 10, 12, 15, 20],
      0.039,
      0.55,
      'fasádny polystyrén do kontaktných zatepľovacích systémov',
    ],
    ['Austrotherm EPS 100', 'austrotherm', [3, 5, 8, 10, 12], 0.037, 0.79, 'podlahový polystyrén so zvýšenou pevnosťou pod potery'],
    [
      'Austrotherm EPS 150',
      'austrotherm',
      [3, 4, 5, 8, 10],
      0.035,
      1.09,
      'vysokopevnostný polystyrén pod zaťažené podlahy a do plochých striech',
    ],
    [
      'Isover EPS GreyWall',
      'isover',
      [5, 10, 12, 15, 16, 20],
      0.031,
      0.72,
      'sivý fasádny polystyrén s prímesou grafitu a lepšou izolačnou schopnosťou',
    ],
  ];
  for (const [line, brand, thicknesses, lambda, perCmM2, text] of eps) {
    for (const cm of thicknesses) {
      const name = `Polystyrén ${line} ${cm} cm`;
      const m2 = Math.round((30 / cm) * 2) / 2 || 0.5;
      out.push({
        name,
        brand,
        cat: 'polystyren',
        description: `${name} je ${text}. Dosky 1000 × 500 mm s rovnými hranami, λ = ${num(lambda)} W/(m·K).`,
        variants: insulationPacks(m2, perCmM2 * cm, 0.15 * cm, 12, 'balík'),
        attrs: {
          hrubka: cm * 10,
          lambda,
          pevnost: line.includes('150') ? 0.15 : line.includes('100') ? 0.1 : 0.07,
          material: 'expandovaný polystyrén',
          trieda: 'E',
          farba: line.includes('Grey') ? 'sivá' : 'biela',
        },
      });
    }
  }

  // XPS
  for (const cm of [3, 4, 5, 6, 8, 10, 12]) {
    const name = `Extrudovaný polystyrén Austrotherm XPS TOP 30 ${cm} cm`;
    const m2 = Math.round((22.5 / cm) * 10) / 10;
    out.push({
      name,
      brand: 'austrotherm',
      cat: 'extrudovany-polystyren',
      description: `${name} s polodrážkou na zateplenie soklov, základov a podláh na teréne. Nenasiakavý, odolný voči vlhkosti a tlaku.`,
      variants: insulationPacks(m2, 2.1 * cm, 0.33 * cm, 14, 'balík'),
      attrs: { hrubka: cm * 10, lambda: 0.034, pevnost: 0.3, material: 'extrudovaný polystyrén', trieda: 'E', farba: 'žltá' },
    });
  }

  // Asfaltové pásy
  for (const [name, m2, gross, kind] of [
    ['Asfaltový pás Icopal Elastek 40 Special Mineral', 7.5, 64.9, 'vrchný pás s posypom na ploché strechy'],
    ['Asfaltový pás Icopal Glastek 40 Special Mineral', 7.5, 49.9, 'vrchný pás so sklenou rohožou'],
    ['Asfaltový pás Icopal Bitagit 40 Mineral', 10, 39.9, 'hydroizolačný pás proti zemnej vlhkosti'],
    ['Asfaltový pás Icopal Elastek 40 Combi', 7.5, 58.9, 'protiradónová izolácia základov'],
    ['Asfaltový pás Icopal Elastek 50 Special Dekor', 5, 52.9, 'pás pre mimoriadne namáhané strechy'],
    ['Penetračný náter Icopal Dekprimer', 0, 39.9, 'asfaltový penetračný náter pod pásy'],
  ] as [string, number, number, string][]) {
    out.push({
      name,
      brand: 'icopal',
      cat: 'asfaltove-pasy',
      description: `${name} – ${kind}. Spracovanie natavovaním plameňom, certifikované podľa STN EN 13707.`,
      variants:
        m2 > 0
          ? [
              area(`rolka ${num(m2)} m²`, m2, gross, m2 * 5, 'rolka'),
              area(`paleta (20 roliek)`, m2 * 20, gross * 20 * 0.93, m2 * 100 + 25, 'paleta'),
            ]
          : [liquid(9, gross, undefined, 'plechovka'), liquid(4.5, gross * 0.56, undefined, 'plechovka')],
      attrs: { hrubka: name.includes('50') ? 5 : 4, material: 'modifikovaný asfalt', farba: 'čierna' },
    });
  }

  // Hydroizolačné stierky
  for (const [name, brand, sizes, spotreba] of [
    ['Hydroizolačná stierka Ceresit CR 65', 'ceresit', [[25, 29.9]], 4],
    [
      'Hydroizolačná hmota Ceresit CL 51',
      'ceresit',
      [
        [5, 29.9],
        [15, 74.9],
      ],
      1.4,
    ],
    ['Hydroizolačná stierka Weber.tec 822', 'weber', [[24, 69.9]], 3],
    [
      'Hydroizolácia Baumit Baumacol Proof',
      'baumit',
      [
        [7, 26.9],
        [14, 46.9],
      ],
      1.2,
    ],
    [
      'Hydroizolácia Mapei Mapelastic',
      'mapei',
      [
        [16, 79.9],
        [32, 149],
      ],
      1.6,
    ],
    [
      'Hydroizolačná hmota Den Braven Hydrostop',
      'den-braven',
      [
        [5, 24.9],
        [12, 49.9],
      ],
      1.5,
    ],
  ] as [string, string, [number, number][], number][]) {
    out.push({
      name,
      brand,
      cat: 'hydroizolacne-stierky',
      description: `${name} chráni podklad pod obkladmi v kúpeľniach, sprchách, na balkónoch a terasách. Nanáša sa v dvoch vrstvách štetcom alebo hladidlom.`,
      variants: sizes.map(([kg, gross]) => bag(kg, gross, kg <= 16 ? 'vedro' : 'vrece')),
      attrs: { spotreba, material: 'polymércementová zmes' },
    });
  }

  // Betónové škridly Bramac: product per model, variants by colour
  for (const [model, gross, colors] of [
    ['Classic', 0.99, ['tehlovočervená', 'tmavohnedá', 'antracit', 'čierna']],
    ['Max', 1.19, ['tehlovočervená', 'tmavohnedá', 'antracit']],
    ['Tegalit Star', 2.29, ['antracit', 'grafitovo čierna', 'bridlicovo čierna']],
    ['Reviva Star', 1.89, ['grafitovo čierna', 'antracit', 'hnedá']],
    ['Montero', 1.69, ['tehlovočervená', 'antracit', 'granit']],
    ['Alpská taška Star', 1.59, ['tehlovočervená', 'čierna', 'tmavohnedá', 'višňová']],
  ] as [string, number, string[]][]) {
    const name = `Betónová škridla Bramac ${model}`;
    out.push({
      name,
      brand: 'bramac',
      cat: 'betonove-skridly',
      description: `${name} je betónová strešná krytina na šikmé strechy so sklonom od 22°. Na 1 m² strechy treba približne 10 kusov. Záruka výrobcu 30 rokov.`,
      variants: colors.map((color) => ({ name: color, gross: price(gross), unit: 'ks', weight: 4.5, base: { amount: 0.1, unit: 'm²' } })),
      attrs: { material: 'betón', hmotnost: 4.5, povrch: model.includes('Star') ? 'hladký s povrchovou úpravou Star' : 'granulát' },
    });
  }

  // Pálené škridly Tondach
  for (const [model, gross, perM2] of [
    ['Figaro 11', 1.49, 11],
    ['Bobrovka 18 × 38', 0.89, 36],
    ['Hranice 11', 1.39, 11],
    ['Stodo 12', 1.29, 12],
    ['Samba 11', 1.59, 11],
  ] as [string, number, number][]) {
    const name = `Pálená škridla Tondach ${model}`;
    out.push({
      name,
      brand: 'tondach',
      cat: 'palene-skridly',
      description: `${name} z kvalitnej pálenej hliny. Na 1 m² strechy treba približne ${perM2} kusov. Farebne stála a mrazuvzdorná, záruka 33 rokov.`,
      variants: ['prírodná červená', 'engoba medená', 'glazúra čierna'].map((color, i) => ({
        name: color,
        gross: price(gross * (1 + i * 0.35)),
        unit: 'ks',
        weight: 3.2,
        base: { amount: Math.round(1000 / perM2) / 1000, unit: 'm²' },
      })),
      attrs: { material: 'pálená hlina', hmotnost: 3.2, farba: 'podľa variantu' },
    });
  }

  // Strešné fólie
  for (const [name, brand, gross, gsm] of [
    ['Difúzna fólia Bramac Top RU', 'bramac', 89.9, 150],
    ['Difúzna fólia Bramac Pro', 'bramac', 119, 190],
    ['Parozábrana Isover Vario KM Duplex UV', 'isover', 129, 80],
    ['Parozábrana Rigips Rigifoil Fire', 'rigips', 99.9, 110],
  ] as [string, string, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'stresne-folie',
      description: `${name} v rolke 1,5 × 50 m (75 m²). Plošná hmotnosť ${gsm} g/m².`,
      variants: [area('rolka 75 m²', 75, gross, (gsm * 75) / 1000 + 1, 'rolka')],
      attrs: { sirka: 1500, material: 'polypropylén' },
    });
  }

  // Strešné okná: variants by size
  for (const [name, brand, base] of [
    ['Strešné okno Velux GLL 1064 B', 'velux', 339],
    ['Strešné okno Velux GZL 1059 B', 'velux', 249],
    ['Strešné okno Velux GGL 2070', 'velux', 459],
    ['Strešné okno Fakro FTP-V U3', 'fakro', 269],
    ['Strešné okno Fakro PTP-V U3', 'fakro', 299],
  ] as [string, string, number][]) {
    const sizes: [string, number][] = [
      ['55 × 78 cm', 1],
      ['66 × 118 cm', 1.28],
      ['78 × 118 cm', 1.4],
      ['78 × 140 cm', 1.56],
      ['114 × 118 cm', 1.82],
    ];
    out.push({
      name,
      brand,
      cat: 'stresne-okna',
      description: `${name} s kyvným otváraním, trojsklom a vetracou klapkou. Lemovanie na profilovanú krytinu sa objednáva zvlášť.`,
      variants: sizes.map(([size, k]) => ({ name: size, gross: price(base * k), unit: 'ks', weight: Math.round(14 * k * 10) / 10 })),
      attrs: { material: name.includes('PTP') ? 'PVC' : 'drevo s bielym polyuretánom' },
    });
  }

  // Jadrové omietky
  for (const [name, brand, kg, gross, zrnitost] of [
    ['Omietka Baumit MPI 25 strojová', 'baumit', 30, 6.49, 1.2],
    ['Omietka Baumit MVR Uni', 'baumit', 30, 8.99, 1],
    ['Omietka Baumit Sanova W', 'baumit', 25, 17.9, 1.2],
    ['Omietka Weber.dur 130', 'weber', 30, 6.29, 1.2],
    ['Omietka Weber.dur 132 ručná', 'weber', 25, 6.99, 1.2],
    ['Sadrová omietka Knauf MP 75', 'knauf', 30, 10.9, 1],
    ['Sadrová omietka Knauf Goldband', 'knauf', 30, 11.9, 1],
    ['Sadrová omietka Rigips Rimano', 'rigips', 30, 10.9, 1],
  ] as [string, string, number, number, number][]) {
    out.push({
      name,
      brand,
      cat: 'jadrove-omietky',
      description: `${name} na murivo z tehál, tvárnic a betónu v interiéri. Hrúbka vrstvy 10 až 30 mm, spotreba približne 13 kg/m² na 10 mm.`,
      variants: [bag(kg, gross), bagPallet(42, kg, gross)],
      attrs: { zrnitost, spotreba: 13, material: name.includes('Sadrová') ? 'sadra' : 'vápno, cement' },
    });
  }

  // Štukové omietky
  for (const [name, brand, gross] of [
    ['Štuková omietka Baumit Feinputz', 'baumit', 7.99],
    ['Štuková omietka Baumit Klima', 'baumit', 9.49],
    ['Štuková omietka Weber.cal 180', 'weber', 8.49],
    ['Štuková omietka Knauf Rotband Finish', 'knauf', 12.9],
    ['Štuková omietka Ceresit CT 225', 'ceresit', 9.99],
    ['Vápenná štuková omietka Baumit Glätte', 'baumit', 10.9],
  ] as [string, string, number][]) {
    out.push({
      name,
      brand,
      cat: 'stukove-omietky',
      description: `${name} vytvorí jemný hladký povrch pod maľbu. Nanáša sa v hrúbke 2 až 3 mm na vyzretú jadrovú omietku.`,
      variants: [bag(25, gross), bagPallet(48, 25, gross)],
      attrs: { zrnitost: 0.6, spotreba: 3, material: 'vápno' },
    });
  }

  // Lepidlá a stierky ETICS
  for (const [name, brand, gross] of [
    ['Lepidlo Baumit ProContact', 'baumit', 9.99],
    ['Lepidlo Baumit StarContact', 'baumit', 13.9],
    ['Lepidlo Baumit StarContact White', 'baumit', 16.9],
    ['Lepidlo Ceresit CT 85', 'ceresit', 12.9],
    ['Lepidlo Ceresit CT 83', 'ceresit', 9.49],
    ['Lepidlo Weber.therm Klebespachtel', 'weber', 10.9],
    ['Lepidlo na polystyrén Den Braven PUR pena', 'den-braven', 9.99],
    ['Stierka Baumit Adhesive', 'baumit', 18.9],
  ] as [string, string, number][]) {
    const foam = name.includes('pena');
    out.push({
      name,
      brand,
      cat: 'lepidla-a-stierky',
      description: foam
        ? `${name} – rýchle lepenie izolačných dosiek z polystyrénu na murivo; jedna dóza na 8 až 10 m².`
        : `${name} na lepenie a stierkovanie izolačných dosiek z polystyrénu a minerálnej vlny v kontaktných zatepľovacích systémoch.`,
      variants: foam
        ? [{ name: '750 ml', gross: price(gross), unit: 'dóza', weight: 1, base: { amount: 0.75, unit: 'l' } }]
        : [bag(25, gross), bagPallet(48, 25, gross)],
      attrs: foam ? { material: 'polyuretán' } : { spotreba: 5, zrnitost: 1, material: 'cementová zmes' },
    });
  }

  // Fasádne omietky: product per line and grain, variants by colour group
  for (const [line, brand, gross] of [
    ['Baumit SilikonTop', 'baumit', 64.9],
    ['Baumit StarTop', 'baumit', 74.9],
    ['Ceresit CT 74 silikónová', 'ceresit', 59.9],
    ['Weber.pas silikón', 'weber', 62.9],
    ['Baumit SilikatTop', 'baumit', 57.9],
  ] as [string, string, number][]) {
    for (const grain of [1.5, 2, 3]) {
      const name = `Fasádna omietka ${line} ${num(grain)} mm`;
      out.push({
        name,
        brand,
        cat: 'fasadne-omietky',
        description: `${name} – pastovitá tenkovrstvová omietka so zrnom ${num(grain)} mm, samočistiaca a paropriepustná. Odtieň miešame podľa vzorkovníka.`,
        variants: [
          { ...bag(25, gross, 'vedro'), name: 'biela, 25 kg' },
          { ...bag(25, gross * 1.15, 'vedro'), name: 'svetlé odtiene, 25 kg' },
          { ...bag(25, gross * 1.3, 'vedro'), name: 'tmavé odtiene, 25 kg' },
        ],
        attrs: {
          zrnitost: grain,
          spotreba: grain * 1.4 + 0.4,
          material: line.includes('Silikat') ? 'draselné vodné sklo' : 'silikónová živica',
        },
      });
    }
  }

  return out;
}
