/**
 * `npm run bench -- waits`: only the rows of "What the shopper waits for" (shopper-waits.ts), on the
 * composed shop (port BENCH_WAITS_PORT, default 4900), written into that section of results.md in
 * place; the rest of the file stays as the last full run wrote it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureShopperWaits, shopperWaitsInputs, shopperWaitsSection } from './shopper-waits.ts';
import { repo, startShop } from './shop-server.ts';

const resultsFile = join(repo, 'tools', 'bench', 'results.md');
const HEADING = '## What the shopper waits for';

const shop = await startShop({ port: Number(process.env.BENCH_WAITS_PORT ?? 4900), name: 'shopper-waits' });
try {
  const inputs = await shopperWaitsInputs(shop.base);
  const section = shopperWaitsSection(await measureShopperWaits(shop.base, inputs.paths, inputs.line)).join('\n');
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '# Benchmark results\n';
  const at = text.indexOf(HEADING);
  const next = at === -1 ? -1 : text.indexOf('\n## ', at + HEADING.length);
  const stamped = `${section}\nMeasured ${new Date().toISOString()} (\`npm run bench -- waits\`).\n`;
  // In place of the last one; a first one before the notebook (or at the end).
  const notebook = text.indexOf('## Notebook:');
  const updated =
    at !== -1
      ? `${text.slice(0, at)}${stamped}${next === -1 ? '' : text.slice(next + 1)}`
      : notebook !== -1
        ? `${text.slice(0, notebook)}${stamped}\n${text.slice(notebook)}`
        : `${text}\n${stamped}`;
  writeFileSync(resultsFile, updated);
  process.stdout.write(`${stamped}\n`);
} finally {
  await shop.stop();
}
