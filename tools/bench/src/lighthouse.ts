/**
 * Lighthouse (mobile settings, simulated throttling: its defaults) in
 * Debian's Chromium; the median of several runs per page, for two visitors:
 * - first: a fresh browser (no cache, no cookies), so the consent notice shows;
 * - returning: the same browser visited the page before and decided on cookies
 *   (rejected analytics and ads), so its HTTP cache holds the immutable files
 *   and no notice shows; Lighthouse keeps that storage (disableStorageReset).
 * Each page's first run is not counted: it warms the shop's server (see below).
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_FLAGS, decidedCookies } from './chromium.ts';
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
  /** Lighthouse's measure of this machine's speed at the time (higher is faster; about 1,000 is a mid-range phone unthrottled). */
  benchmarkIndex: number;
  /**
   * How much of a core the page's main thread had while it ran its tasks: thread time over wall
   * time of its tasks in the trace. Lighthouse times tasks by the wall clock (then multiplies by 4
   * for a phone), so on a busy machine a task's blocking time grows by the inverse of this share.
   */
  mainThreadShare: number;
};

type TraceEvent = { name?: string; ph?: string; pid?: number; tid?: number; dur?: number; tdur?: number; args?: { name?: string } };

/** Thread time / wall time of the page's renderer main thread's tasks (the busiest CrRendererMain). */
function mainThreadShareOf(trace: { traceEvents: TraceEvent[] } | undefined): number {
  if (!trace) return NaN;
  const mains = new Set(
    trace.traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, { wall: number; cpu: number }>();
  for (const e of trace.traceEvents) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name !== 'RunTask' || e.ph !== 'X' || !mains.has(key) || !e.dur) continue;
    const sums = byThread.get(key) ?? { wall: 0, cpu: 0 };
    sums.wall += e.dur;
    sums.cpu += e.tdur ?? e.dur;
    byThread.set(key, sums);
  }
  const busiest = [...byThread.values()].sort((a, b) => b.wall - a.wall)[0];
  return busiest ? busiest.cpu / busiest.wall : NaN;
}

type NodeDetails = { items?: { items?: { node?: { nodeLabel?: string; selector?: string } }[] }[] };

/** "p: Používame cookies…" or "img.cat-gallery__image": what a reader of the results recognises. */
export function lcpElementOf(details: unknown): string {
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

export type Visitor = 'first' | 'returning';

/** A returning visitor's browser: consent decided, the page visited once (its cache warm). */
async function visitBefore(port: number, url: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    await context.addCookies(decidedCookies(url));
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(1500);
    await page.close();
  } finally {
    await browser.close();
  }
}

export async function runLighthouse(
  base: string,
  pages: { name: string; path: string }[],
  runs = 5,
  visitor: Visitor = 'first',
): Promise<LighthouseResult[]> {
  const results: LighthouseResult[] = [];
  for (const { name, path } of pages) {
    const samples: LighthouseResult[] = [];
    // Run -1 is not counted: the shop's server as shoppers meet it, warm. Its first visits of a page
    // draw the pictures at Lighthouse's sizes (each drawn once, then kept) and compile its code, on
    // this machine's two cores beside Chromium: the first page measured after a start ran at 43 %
    // of a core and gave TBT 197 ms where the next runs gave 0-15 ms.
    for (let run = -1; run < runs; run += 1) {
      // A fresh browser per run: a cold cache for a first visit, one visit's cache for a returning one.
      // chrome-launcher stops Chromium with SIGKILL, which leaves Chromium's own temporary
      // directories behind; giving it a TMPDIR of its own lets the run remove them.
      const tmp = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
      const chrome = await chromeLauncher.launch({
        chromePath: CHROMIUM,
        chromeFlags: CHROMIUM_FLAGS,
        envVars: { ...process.env, TMPDIR: tmp },
      });
      try {
        if (visitor === 'returning') await visitBefore(chrome.port, `${base}${path}`);
        const answer = await lighthouse(`${base}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          disableStorageReset: visitor === 'returning',
        });
        const audits = answer!.lhr.audits;
        if (run < 0) continue;
        samples.push({
          name,
          score: Math.round((answer!.lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
          cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
          fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
          lcpElement: lcpElementOf(audits['largest-contentful-paint-element']?.details),
          benchmarkIndex: answer!.lhr.environment.benchmarkIndex,
          mainThreadShare: mainThreadShareOf((answer!.artifacts as { Trace?: { traceEvents: TraceEvent[] } }).Trace),
        });
      } finally {
        await chrome.kill();
        rmSync(tmp, { recursive: true, force: true });
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
      benchmarkIndex: median(samples.map((s) => s.benchmarkIndex)),
      mainThreadShare: median(samples.map((s) => s.mainThreadShare)),
    });
  }
  return results;
}
