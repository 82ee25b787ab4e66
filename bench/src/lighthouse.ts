/**
 * Lighthouse (mobile settings, simulated throttling: its defaults) in
 * Debian's Chromium; the median of several runs per page.
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { median } from './shop-server.ts';

export type LighthouseResult = { name: string; score: number; lcpMs: number; tbtMs: number; cls: number };

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
    });
  }
  return results;
}
