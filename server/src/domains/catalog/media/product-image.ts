/**
 * A product picture drawn as SVG that tells products apart: a pictogram by what the product is
 * (its name and category: a brick is not a chimney, nor a bag of screed), in the product's colour
 * when its name says one, its size or pack (30 × 60, 25 kg, 3 cm) in a badge, and its name.
 */
import { foldText } from '../../../infra/pure/format.ts';
import { escapeHtml } from '../../../infra/pure/html.ts';

type Theme = { background: string; accent: string; pictogram: string };

const THEMES: Record<string, Theme> = {
  'hruba-stavba': { background: '#f3e2d6', accent: '#b5532d', pictogram: bricks('#b5532d') },
  'suche-stavby': { background: '#eceef1', accent: '#5a6b7d', pictogram: board('#5a6b7d') },
  izolacie: { background: '#fdf3cf', accent: '#c99a06', pictogram: waves('#c99a06') },
  strechy: { background: '#f6dede', accent: '#9c2f2f', pictogram: roof('#9c2f2f') },
  'omietky-a-fasady': { background: '#efe9df', accent: '#8a7456', pictogram: trowel('#8a7456') },
  'farby-a-laky': { background: '#e3eefc', accent: '#2f6db5', pictogram: bucket('#2f6db5') },
  'dlazby-a-obklady': { background: '#e4f1ef', accent: '#2c7d72', pictogram: tiles('#2c7d72') },
  naradie: { background: '#fde8d7', accent: '#d0631b', pictogram: drill('#d0631b') },
  zahrada: { background: '#e5f3df', accent: '#3f7f2a', pictogram: tree('#3f7f2a') },
  'tmely-a-peny': { background: '#efe6f6', accent: '#6c3f94', pictogram: cartridge('#6c3f94') },
};
const FALLBACK: Theme = { background: '#eeeeee', accent: '#555555', pictogram: board('#555555') };

const SIZE = 600;

/** SVG is XML: the API's one HTML escape covers it (&#39; is valid XML too). */
const escapeXml = escapeHtml;

/** Splits a name into at most `maxLines` lines of about `width` characters. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && (current + ' ' + word).length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, width - 1)}…`;
    return kept;
  }
  return lines;
}

/** Pictograms by what a product is, matched on its folded name and category path (first match wins). */
const KINDS: [RegExp, (colour: string) => string][] = [
  [/komin/, chimney],
  [/farb|\blak|email|penetr/, bucket],
  [/obklad|dlazb/, tiles],
  [/tvarnic|ytong|porfix|blok/, blocks],
  [/tehl/, bricks],
  [/\bosb\b|doska|sadrokarton|panel/, board],
  [/polystyren|\beps\b|\bxps\b|vlna|izola/, waves],
  [/strech|skridl|krytin/, roof],
  [/tmel|silikon|pena/, cartridge],
  [/vrtac|skrutkov|bruska|pila|kladivo|naradie/, drill],
  // Last: anything sold by the bag (screed, concrete, mortar, adhesive).
  [/poter|beton|cement|malta|lepidl|\bkg\b/, bag],
];

/** Colour words in Slovak product names (folded) and how they are drawn. */
const COLOURS: [RegExp, string][] = [
  [/antracit|grafit/, '#3b3f45'],
  [/biel/, '#f4f4f0'],
  [/siv|seda/, '#8c9096'],
  [/cierna|cierny/, '#1f1f1f'],
  [/cerven|tehlov/, '#b3372b'],
  [/hned|orech/, '#6e4a2f'],
  [/bezov|piesk/, '#d8c3a0'],
  [/zlt/, '#e2b21b'],
  [/zelen/, '#3f8a3a'],
  [/modr/, '#2f63b5'],
];

/** Size or pack in a name: "30 × 60", "25 kg", "3 cm", "12,5 mm", "10 l". */
const SIZE_IN_NAME = /(\d+(?:[.,]\d+)?\s*[×x]\s*\d+(?:[.,]\d+)?(?:\s*(?:cm|mm))?|\d+(?:[.,]\d+)?\s*(?:kg|mm|cm|m²|m2|m|l|ks)\b)/i;

export function productLook(
  name: string,
  categoryPath: string,
): { pictogram: (colour: string) => string | null; colour: string | null; size: string | null } {
  const folded = foldText(`${name} ${categoryPath}`);
  const kind = KINDS.find(([pattern]) => pattern.test(folded))?.[1] ?? null;
  const colour = COLOURS.find(([pattern]) => pattern.test(foldText(name)))?.[1] ?? null;
  const size = SIZE_IN_NAME.exec(name)?.[1]?.replace(/\s*[×x]\s*/, ' × ') ?? null;
  return { pictogram: (accent) => (kind ? kind(accent) : null), colour, size };
}

export function productSvg(name: string, rootCategoryUrl: string | undefined, categoryPath = ''): string {
  const theme = (rootCategoryUrl && THEMES[rootCategoryUrl]) || FALLBACK;
  const look = productLook(name, categoryPath);
  const ink = look.colour ?? theme.accent;
  const pictogram = look.pictogram(ink) ?? (look.colour ? theme.pictogram.replaceAll(theme.accent, ink) : theme.pictogram);
  // A white product on a light background gets an outline so it stays visible.
  const outline = look.colour === '#f4f4f0' ? ' stroke="#9a9a9a" stroke-width="2"' : '';
  const badge = look.size
    ? `<g transform="translate(560 40)"><rect x="${-16 - look.size.length * 17}" y="0" width="${16 + look.size.length * 17}" height="48" rx="24" fill="${theme.accent}"/><text x="${-8 - (look.size.length * 17) / 2}" y="33" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="26" font-weight="700" fill="#fff">${escapeXml(look.size)}</text></g>`
    : '';
  const lines = wrapText(name, 24, 3);
  const text = lines.map((line, i) => `<tspan x="300" dy="${i === 0 ? 0 : 40}">${escapeXml(line)}</tspan>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${escapeXml(name)}">
<rect width="${SIZE}" height="${SIZE}" fill="${theme.background}"/>
<g transform="translate(180 70)"${outline}>${pictogram}</g>
${badge}
<rect x="40" y="392" width="520" height="4" rx="2" fill="${theme.accent}" opacity="0.5"/>
<text x="300" y="${450 - (lines.length - 1) * 12}" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="32" font-weight="700" fill="#222">${text}</text>
</svg>`;
}

// Pictograms, drawn in a 240 x 240 box.

function bricks(c: string): string {
  const rows = [0, 1, 2, 3].map((r) => {
    const offset = r % 2 === 0 ? 0 : -40;
    return [0, 1, 2, 3].map((i) => `<rect x="${offset + i * 80}" y="${30 + r * 48}" width="74" height="42" rx="3" fill="${c}"/>`).join('');
  });
  return `<clipPath id="pictogram-bricks"><rect width="240" height="240"/></clipPath><g clip-path="url(#pictogram-bricks)">${rows.join('')}</g>`;
}

function board(c: string): string {
  return `<rect x="30" y="20" width="180" height="200" rx="6" fill="none" stroke="${c}" stroke-width="10"/>
<line x1="30" y1="86" x2="210" y2="86" stroke="${c}" stroke-width="6"/><line x1="30" y1="153" x2="210" y2="153" stroke="${c}" stroke-width="6"/>`;
}

function waves(c: string): string {
  return [40, 95, 150, 205]
    .map(
      (y) => `<path d="M10 ${y} q 27.5 -30 55 0 t 55 0 t 55 0 t 55 0" fill="none" stroke="${c}" stroke-width="12" stroke-linecap="round"/>`,
    )
    .join('');
}

function roof(c: string): string {
  return `<path d="M10 130 L120 30 L230 130" fill="none" stroke="${c}" stroke-width="16" stroke-linejoin="round"/>
<rect x="45" y="130" width="150" height="100" fill="${c}" opacity="0.85"/><rect x="100" y="170" width="40" height="60" fill="#fff"/>`;
}

function trowel(c: string): string {
  return `<path d="M20 200 L140 80 L220 160 L100 200 Z" fill="${c}"/><rect x="130" y="20" width="16" height="80" rx="6" transform="rotate(45 138 60)" fill="${c}"/>`;
}

function bucket(c: string): string {
  return `<path d="M50 70 L190 70 L175 220 L65 220 Z" fill="${c}"/><path d="M50 70 Q120 0 190 70" fill="none" stroke="${c}" stroke-width="8"/>
<rect x="75" y="110" width="90" height="50" rx="6" fill="#fff" opacity="0.8"/>`;
}

function tiles(c: string): string {
  const cells: string[] = [];
  for (let r = 0; r < 3; r++)
    for (let i = 0; i < 3; i++) {
      cells.push(
        `<rect x="${15 + i * 72}" y="${15 + r * 72}" width="66" height="66" rx="4" fill="${c}" opacity="${(r + i) % 2 === 0 ? 1 : 0.6}"/>`,
      );
    }
  return cells.join('');
}

function drill(c: string): string {
  return `<rect x="30" y="60" width="150" height="60" rx="14" fill="${c}"/><rect x="180" y="80" width="50" height="20" fill="${c}"/>
<path d="M70 120 L110 120 L120 220 L60 220 Z" fill="${c}" opacity="0.85"/>`;
}

function tree(c: string): string {
  return `<circle cx="120" cy="90" r="75" fill="${c}"/><rect x="108" y="150" width="24" height="80" fill="#7a5230"/>`;
}

function cartridge(c: string): string {
  return `<rect x="60" y="60" width="120" height="160" rx="12" fill="${c}"/><path d="M95 60 L120 5 L145 60 Z" fill="${c}" opacity="0.8"/>
<rect x="80" y="110" width="80" height="60" rx="6" fill="#fff" opacity="0.8"/>`;
}

function chimney(c: string): string {
  return `<rect x="80" y="30" width="80" height="200" fill="${c}"/><rect x="70" y="20" width="100" height="24" fill="${c}" opacity="0.8"/>
<path d="M100 10 q 15 -20 30 0" fill="none" stroke="#777" stroke-width="6" stroke-linecap="round"/>`;
}

function bag(c: string): string {
  return `<path d="M50 40 L190 40 L205 225 L35 225 Z" fill="${c}"/><rect x="50" y="30" width="140" height="20" rx="4" fill="${c}" opacity="0.75"/>
<rect x="75" y="100" width="90" height="70" rx="8" fill="#fff" opacity="0.85"/>`;
}

function blocks(c: string): string {
  const cells: string[] = [];
  for (let r = 0; r < 2; r++)
    for (let i = 0; i < 2; i++)
      cells.push(`<rect x="${10 + i * 115 - (r % 2) * 20}" y="${40 + r * 95}" width="105" height="85" rx="4" fill="${c}"/>`);
  return `<clipPath id="pictogram-blocks"><rect width="240" height="240"/></clipPath><g clip-path="url(#pictogram-blocks)">${cells.join('')}</g>`;
}
