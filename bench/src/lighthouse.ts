/**
 * Lighthouse (mobile settings, simulated throttling: its defaults) in
 * Debian's Chromium; the median of several runs per page.
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { median } from './shop-server.ts';

export type LighthouseResult = {
  name: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** The element that was the largest contentful paint (the most frequent one over the runs). */
  lcpElement: string;
};

type NodeDetails = { items?: { items?: { node?: { nodeLabel?: string; selector?: string } }[] }[] };

/** "p: Používame cookies…" or "img.cat-gallery__image": what a reader of the results recognises. */
function lcpElementOf(details: unknown): string {
  const node = (details as NodeDetails | undefined)?.items?.[0]?.items?.[0]?.node;
  if (!node) return 'unknown';
  const selector = (node.selector ?? '').split(' > ').at(-1) ?? '';
  return `${selector}${node.nodeLabel ? ` ("${node.nodeLabel.slice(0, 40)}")` : ''}`;
}

function mostFrequent(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'unknown';
}

export async function runLighthouse(base: string, pages: { name: string; path: string }[], runs = 5): Promise<LighthouseResult[]> {
  const results: LighthouseResult[] = [];
  for (const { name, path } of pages) {
    const samples: LighthouseResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      // A fresh browser per run: a cold cache, as a first visit.
      const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
      try {
        const answer = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        const audits = answer!.lhr.audits;
        samples.push({
          name,
          score: Math.round((answer!.lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
          cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
          fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
          lcpElement: lcpElementOf(audits['largest-contentful-paint-element']?.details),
        });
      } finally {
        await chrome.kill();
      }
    }
    results.push({
      name,
      score: median(samples.map((s) => s.score)),
      lcpMs: median(samples.map((s) => s.lcpMs)),
      tbtMs: median(samples.map((s) => s.tbtMs)),
      cls: median(samples.map((s) => s.cls)),
      fcpMs: median(samples.map((s) => s.fcpMs)),
      lcpElement: mostFrequent(samples.map((s) => s.lcpElement)),
    });
  }
  return results;
}
