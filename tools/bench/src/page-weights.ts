/**
 * JavaScript over the wire (compressed bytes as transferred) and requests,
 * on a page's first load and on the next client-side navigation from it, and
 * the number of serial round trips before its main content shows: the
 * longest chain of requests, each started by the one before it (document →
 * script → registry → area entry → page module → data), among those sent
 * before the main heading appeared. Measured in Chromium through CDP.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { isFederationCode } from './federation-code.ts';
import { median } from './shop-server.ts';

export type PageCase = {
  name: string;
  path: string;
  /** The page's main content. */
  ready: (page: Page) => Promise<void>;
  /** A client-side navigation from this page, and what shows when it is done. */
  next: (page: Page) => Promise<void>;
};

export type PageWeight = {
  name: string;
  firstJsKb: number;
  /** Of firstJsKb, the federation's runtime and generated code (federation-code.ts); 0 for the monolith. */
  firstFederationKb: number;
  /** Of firstScripts, those that are the federation's runtime and generated code. */
  firstFederationScripts: number;
  firstRequests: number;
  firstScripts: number;
  nextJsKb: number;
  nextRequests: number;
  roundTrips: number;
  /** From the HTML's arrival (its response headers) to the request of the page's first product picture; null without one. */
  firstPictureMs: number | null;
};

/** `at`: when the request left (CDP's monotonic clock, seconds); `respondedAt`: when its response headers arrived. */
type Seen = {
  url: string;
  type: string;
  parent: string | null;
  wallTime: number;
  at: number;
  respondedAt: number | null;
  bytes: number;
  done: boolean;
};

async function record(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map<string, Seen>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const frame = event.initiator.stack?.callFrames[0]?.url ?? event.initiator.stack?.parent?.callFrames[0]?.url;
    const parent = event.initiator.url ?? frame ?? null;
    requests.set(event.requestId, {
      url: event.request.url,
      type: event.type ?? 'Other',
      parent,
      wallTime: event.wallTime,
      at: event.timestamp,
      respondedAt: null,
      bytes: 0,
      done: false,
    });
  });
  cdp.on('Network.responseReceived', (event) => {
    const seen = requests.get(event.requestId);
    if (seen) seen.respondedAt = event.timestamp;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const seen = requests.get(event.requestId);
    if (seen) Object.assign(seen, { bytes: event.encodedDataLength, done: true });
  });
  return requests;
}

/** Milliseconds from the document's response to the first request of a product picture (/media/p/…). */
function firstPictureMs(requests: Iterable<Seen>): number | null {
  const list = [...requests];
  const document = list.find((request) => request.type === 'Document');
  const pictures = list.filter((request) => request.type === 'Image' && new URL(request.url).pathname.startsWith('/media/p/'));
  if (!document?.respondedAt || pictures.length === 0) return null;
  return (Math.min(...pictures.map((picture) => picture.at)) - document.respondedAt) * 1000;
}

function totals(requests: Iterable<Seen>) {
  const list = [...requests].filter((request) => request.done && !request.url.startsWith('data:'));
  const scripts = list.filter((request) => request.type === 'Script');
  const js = scripts.reduce((sum, request) => sum + request.bytes, 0);
  return { jsKb: js / 1024, requests: list.length, scripts };
}

async function federationShare(scripts: Seen[]): Promise<{ kb: number; scripts: number }> {
  const federation = await Promise.all(scripts.map((script) => isFederationCode(script.url)));
  const theirs = scripts.filter((_, index) => federation[index]);
  return { kb: theirs.reduce((sum, script) => sum + script.bytes, 0) / 1024, scripts: theirs.length };
}

/** Longest initiator chain among requests sent before `until` (epoch seconds). */
function serialRoundTrips(requests: Map<string, Seen>, until: number): number {
  const byUrl = new Map<string, Seen>();
  for (const request of requests.values()) if (!byUrl.has(request.url)) byUrl.set(request.url, request);
  const depth = (request: Seen, guard = 0): number => {
    const parent = request.parent ? byUrl.get(request.parent) : undefined;
    return parent && parent !== request && guard < 50 ? 1 + depth(parent, guard + 1) : 1;
  };
  return Math.max(...[...requests.values()].filter((request) => request.wallTime <= until).map((request) => depth(request)));
}

async function measureOnce(browser: Browser, base: string, pageCase: PageCase): Promise<PageWeight> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => {
      const [name, value] = pair.split('=') as [string, string];
      return { name, value, url: base };
    }),
  );
  const page = await context.newPage();
  const requests = await record(page);
  await page.goto(base + pageCase.path);
  await pageCase.ready(page);
  const shownAt = (await page.evaluate(() => Date.now())) / 1000;
  await page.waitForLoadState('networkidle');
  const first = totals(requests.values());
  const federation = await federationShare(first.scripts);
  const picture = firstPictureMs(requests.values());
  const roundTrips = serialRoundTrips(requests, shownAt);
  const before = new Set(requests.keys());
  await pageCase.next(page);
  await page.waitForLoadState('networkidle');
  const next = totals([...requests].filter(([id]) => !before.has(id)).map(([, request]) => request));
  await context.close();
  return {
    name: pageCase.name,
    firstJsKb: first.jsKb,
    firstFederationKb: federation.kb,
    firstFederationScripts: federation.scripts,
    firstRequests: first.requests,
    firstScripts: first.scripts.length,
    nextJsKb: next.jsKb,
    nextRequests: next.requests,
    roundTrips,
    firstPictureMs: picture,
  };
}

export async function measurePageWeights(base: string, cases: PageCase[], runs = 3): Promise<PageWeight[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const results: PageWeight[] = [];
    for (const pageCase of cases) {
      const samples: PageWeight[] = [];
      for (let run = 0; run < runs; run += 1) samples.push(await measureOnce(browser, base, pageCase));
      results.push({
        name: pageCase.name,
        firstJsKb: median(samples.map((s) => s.firstJsKb)),
        firstFederationKb: median(samples.map((s) => s.firstFederationKb)),
        firstFederationScripts: median(samples.map((s) => s.firstFederationScripts)),
        firstRequests: median(samples.map((s) => s.firstRequests)),
        firstScripts: median(samples.map((s) => s.firstScripts)),
        nextJsKb: median(samples.map((s) => s.nextJsKb)),
        nextRequests: median(samples.map((s) => s.nextRequests)),
        roundTrips: median(samples.map((s) => s.roundTrips)),
        firstPictureMs: samples.every((s) => s.firstPictureMs !== null) ? median(samples.map((s) => s.firstPictureMs!)) : null,
      });
    }
    return results;
  } finally {
    await browser.close();
  }
}
