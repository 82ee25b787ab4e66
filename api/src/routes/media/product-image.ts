/** A product picture drawn as SVG: a colour and pictogram by top category, the product name as text. */

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

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

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

export function productSvg(name: string, rootCategoryUrl: string | undefined): string {
  const theme = (rootCategoryUrl && THEMES[rootCategoryUrl]) || FALLBACK;
  const lines = wrapText(name, 24, 3);
  const text = lines
    .map((line, i) => `<tspan x="300" dy="${i === 0 ? 0 : 40}">${escapeXml(line)}</tspan>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${escapeXml(name)}">
<rect width="${SIZE}" height="${SIZE}" fill="${theme.background}"/>
<g transform="translate(180 70)">${theme.pictogram}</g>
<rect x="40" y="392" width="520" height="4" rx="2" fill="${theme.accent}" opacity="0.5"/>
<text x="300" y="${450 - (lines.length - 1) * 12}" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="32" font-weight="700" fill="#222">${text}</text>
</svg>`;
}

// Pictograms, drawn in a 240 x 240 box.

function bricks(c: string): string {
  const rows = [0, 1, 2, 3].map((r) => {
    const offset = r % 2 === 0 ? 0 : -40;
    return [0, 1, 2, 3]
      .map((i) => `<rect x="${offset + i * 80}" y="${30 + r * 48}" width="74" height="42" rx="3" fill="${c}"/>`)
      .join('');
  });
  return `<clipPath id="pictogram-bricks"><rect width="240" height="240"/></clipPath><g clip-path="url(#pictogram-bricks)">${rows.join('')}</g>`;
}

function board(c: string): string {
  return `<rect x="30" y="20" width="180" height="200" rx="6" fill="none" stroke="${c}" stroke-width="10"/>
<line x1="30" y1="86" x2="210" y2="86" stroke="${c}" stroke-width="6"/><line x1="30" y1="153" x2="210" y2="153" stroke="${c}" stroke-width="6"/>`;
}

function waves(c: string): string {
  return [40, 95, 150, 205]
    .map((y) => `<path d="M10 ${y} q 27.5 -30 55 0 t 55 0 t 55 0 t 55 0" fill="none" stroke="${c}" stroke-width="12" stroke-linecap="round"/>`)
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
  for (let r = 0; r < 3; r++) for (let i = 0; i < 3; i++) {
    cells.push(`<rect x="${15 + i * 72}" y="${15 + r * 72}" width="66" height="66" rx="4" fill="${c}" opacity="${(r + i) % 2 === 0 ? 1 : 0.6}"/>`);
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
