import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { installTelemetry, setCurrentArea, type TelemetryOptions } from './telemetry.ts';
import { installVitals, reportVital, type VitalReport } from './vitals.ts';

const stops: (() => void)[] = [];
let sent: TelemetryEvent[][] = [];

function install(options: TelemetryOptions = {}) {
  stops.push(
    installTelemetry({
      send: (_url, body) => {
        sent.push((JSON.parse(body) as { events: TelemetryEvent[] }).events);
        return true;
      },
      ...options,
    }),
  );
}

/** A library whose callbacks the test calls. */
function fakeLibrary() {
  const callbacks: Record<string, (report: VitalReport) => void> = {};
  const library = {
    onLCP: (cb: (r: VitalReport) => void) => (callbacks.LCP = cb),
    onINP: (cb: (r: VitalReport) => void) => (callbacks.INP = cb),
    onCLS: (cb: (r: VitalReport) => void) => (callbacks.CLS = cb),
    onFCP: (cb: (r: VitalReport) => void) => (callbacks.FCP = cb),
    onTTFB: (cb: (r: VitalReport) => void) => (callbacks.TTFB = cb),
  };
  return { callbacks, load: vi.fn(async () => library) };
}

const vitals = () => sent.flat().filter((event) => event.type === 'vital');

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('vital events', () => {
  it('are attributed to the view shown when they happened, once per metric, bounded, with the selector scrubbed', async () => {
    install({ flushMs: 1000 });
    const { callbacks, load } = fakeLibrary();
    stops.push(installVitals({ serverRendered: true, load, delayMs: 3000 }));
    vi.spyOn(performance, 'now').mockReturnValue(100);
    setCurrentArea('catalog', '1.4.0', 'product');
    vi.spyOn(performance, 'now').mockReturnValue(5000);
    setCurrentArea('checkout', '2.0.0-canary.1', 'cart');
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(load).toHaveBeenCalledTimes(1);

    callbacks.TTFB!({ name: 'TTFB', value: 80.4 });
    callbacks.LCP!({ name: 'LCP', value: 1234.56, attribution: { target: 'main>img.cat-gallery__img[alt="Tehla 12345678"]' } });
    callbacks.LCP!({ name: 'LCP', value: 999_999 });
    callbacks.INP!({ name: 'INP', value: 420, attribution: { interactionTarget: 'button.basket__qty', interactionTime: 6000 } });
    callbacks.CLS!({ name: 'CLS', value: 37, attribution: { largestShiftTime: 200 } });
    callbacks.FCP!({ name: 'FCP', value: Number.NaN });
    await vi.advanceTimersByTimeAsync(1000);

    expect(vitals()).toEqual([
      { type: 'vital', area: 'catalog', version: '1.4.0', route: 'product', metric: 'ttfb', value: 80, ssr: true },
      {
        type: 'vital',
        area: 'catalog',
        version: '1.4.0',
        route: 'product',
        metric: 'lcp',
        value: 1235,
        ssr: true,
        target: 'main>img.cat-gallery__img[alt=""]',
      },
      {
        type: 'vital',
        area: 'checkout',
        version: '2.0.0-canary.1',
        route: 'cart',
        metric: 'inp',
        value: 420,
        ssr: false,
        target: 'button.basket__qty',
      },
      { type: 'vital', area: 'catalog', version: '1.4.0', route: 'product', metric: 'cls', value: 10, ssr: true },
    ]);
  });

  it('leave at once when the page is hidden, and load the library at the first tap', async () => {
    install({ flushMs: 60_000 });
    const { callbacks, load } = fakeLibrary();
    stops.push(installVitals({ serverRendered: false, load, delayMs: 60_000 }));
    setCurrentArea('content', '3.1.0', 'page');
    window.dispatchEvent(new Event('pointerdown'));
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    callbacks.CLS!({ name: 'CLS', value: 0.04321 });
    expect(sent).toEqual([[{ type: 'vital', area: 'content', version: '3.1.0', route: 'page', metric: 'cls', value: 0.0432, ssr: false }]]);
  });

  it('are not sent from a page load outside the sample, nor for an area without a released version', async () => {
    install({ sampleRate: 0.1, random: () => 0.5 });
    setCurrentArea('catalog', '1.4.0', 'product');
    reportVital({ name: 'LCP', value: 900 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([]);

    install({ flushMs: 10 });
    setCurrentArea('catalog', null, 'product');
    reportVital({ name: 'LCP', value: 900 });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toEqual([]);
  });
});

describe('the attribution', () => {
  it('leaves the browser scrubbed: no query, quoted value or long number, selector characters only, 80 at most', async () => {
    const { scrubVitalTarget } = await import('@shop/shared-kernel/rules');
    expect(scrubVitalTarget('#main>div.area-outlet>div>h1')).toBe('#main>div.area-outlet>div>h1');
    expect(scrubVitalTarget('img[src="/p/tehla?email=jan@example.sk"]')).toBe('img[src=""]');
    expect(scrubVitalTarget('a.order-12345678>span')).toBe('a.order-0>span');
    expect(scrubVitalTarget('input#q?q=tehla')).toBe('input#q');
    expect(scrubVitalTarget('div.<script>alert(1)</script>')).toBe('div.script>alert(1)script>');
    expect(scrubVitalTarget(`div>${'span>'.repeat(40)}`)).toHaveLength(80);
  });
});
