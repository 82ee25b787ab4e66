import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bus, type CommerceItem } from '@shop/shared-kernel';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { installTelemetry, reportError, reportPageView, scrubMessage, setCurrentArea, type TelemetryOptions } from './telemetry.ts';

let uninstall: (() => void) | null = null;
let sent: { url: string; events: TelemetryEvent[] }[] = [];

/** Installs with a send that records the batches (true: the beacon took them). */
function install(options: TelemetryOptions = {}, accept = true) {
  const send = vi.fn((url: string, body: string) => {
    sent.push({ url, events: (JSON.parse(body) as { events: TelemetryEvent[] }).events });
    return accept;
  });
  uninstall = installTelemetry({ send, ...options });
  return send;
}

const events = () => sent.flatMap((batch) => batch.events);

function setVisibility(value: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
}

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
});
afterEach(() => {
  uninstall?.();
  uninstall = null;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('batching', () => {
  it('waits flushMs for a batch, sends a full batch at once, as {events} to /api/telemetry', () => {
    install({ maxBatch: 3, flushMs: 5000 });
    reportPageView('catalog', '1.4.0', 'category');
    reportPageView('catalog', '1.4.0', 'product');
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(4999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([
      {
        url: '/api/telemetry',
        events: [
          { type: 'view', area: 'catalog', version: '1.4.0', route: 'category' },
          { type: 'view', area: 'catalog', version: '1.4.0', route: 'product' },
        ],
      },
    ]);
    for (let i = 0; i < 3; i += 1) reportPageView('content', '2.0.0', 'page');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.events).toHaveLength(3);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(2);
  });

  it('flushes when the page is left or hidden, and on uninstall', () => {
    install({ endpoint: '/t' });
    reportPageView('shell', '0.9.0', 'home');
    window.dispatchEvent(new Event('pagehide'));
    expect(sent).toEqual([{ url: '/t', events: [{ type: 'view', area: 'shell', version: '0.9.0', route: 'home' }] }]);

    reportPageView('shell', '0.9.0', 'home');
    setVisibility('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(sent).toHaveLength(1);
    setVisibility('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(sent).toHaveLength(2);

    reportPageView('shell', '0.9.0', 'home');
    uninstall!();
    uninstall = null;
    expect(sent).toHaveLength(3);
    // Uninstalled: nothing is queued, no listener is left.
    reportPageView('shell', '0.9.0', 'home');
    window.dispatchEvent(new Event('pagehide'));
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(3);
  });

  it('splits a batch that would be over the API body limit', () => {
    install({ maxBatch: 50, flushMs: 1000 });
    for (let i = 0; i < 50; i += 1) reportError('boundary', 'checkout', '3.0.0', `${i} ${'ž'.repeat(290)}`);
    vi.advanceTimersByTime(1000);
    expect(events()).toHaveLength(50);
    expect(sent.length).toBeGreaterThan(1);
    for (const batch of sent)
      expect(new TextEncoder().encode(JSON.stringify({ events: batch.events })).length).toBeLessThanOrEqual(15 * 1024);
  });
});

describe('what is reported', () => {
  it('drops events of unknown areas and of areas without a released version; a bad route name is left out', () => {
    install({ flushMs: 10 });
    reportPageView('admin', '1.0.0', 'home');
    reportPageView('catalog', null, 'home');
    reportPageView('catalog', '1.0 beta', 'home');
    reportError('load-failed', 'catalog', null, 'Failed to fetch remoteEntry.js');
    reportPageView('catalog', '1.0.0+build.7', 'Product Page');
    vi.advanceTimersByTime(10);
    expect(events()).toEqual([{ type: 'view', area: 'catalog', version: '1.0.0+build.7' }]);
  });

  it('reports uncaught errors and unhandled rejections against the area rendering now, with its route and stack', () => {
    const CART_FILE = 'https://cdn.example/remotes/checkout/2.3.1/assets/cart-page-Xy12.js';
    install({ flushMs: 10 });
    // Nothing rendered yet: nothing to attribute it to.
    window.dispatchEvent(new ErrorEvent('error', { message: 'too early' }));
    setCurrentArea('checkout', '2.3.1', 'checkout');
    // The stack goes along as its frames, the released file's address kept for the server's source maps.
    const thrown = Object.assign(new TypeError('basket is null'), {
      stack: `TypeError: basket is null for jan@example.sk\n    at Ab (${CART_FILE}?v=1:1:23456)\n    at ${CART_FILE}:1:40`,
    });
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: basket is null', error: thrown }));
    window.dispatchEvent(new ErrorEvent('error', { message: 'from an extension', filename: 'chrome-extension://abc/content.js' }));
    window.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), { reason: Object.assign(new Error('quote failed'), { stack: '' }) }),
    );
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'plain reason' }));
    reportError('boundary', 'catalog', '1.0.0', 'render failed');
    setCurrentArea('account', null, 'account');
    window.dispatchEvent(new ErrorEvent('error', { message: 'unreleased area' }));
    vi.advanceTimersByTime(10);
    expect(events()).toEqual([
      {
        type: 'error',
        area: 'checkout',
        version: '2.3.1',
        route: 'checkout',
        kind: 'uncaught',
        message: 'Uncaught TypeError: basket is null',
        stack: [
          { fn: 'Ab', url: CART_FILE, line: 1, column: 23456 },
          { url: CART_FILE, line: 1, column: 40 },
        ],
      },
      { type: 'error', area: 'checkout', version: '2.3.1', route: 'checkout', kind: 'rejection', message: 'Error: quote failed' },
      { type: 'error', area: 'checkout', version: '2.3.1', route: 'checkout', kind: 'rejection', message: 'plain reason' },
      { type: 'error', area: 'catalog', version: '1.0.0', kind: 'boundary', message: 'render failed' },
    ]);
  });

  it('forwards the bus’s basket:added as basket-add of the page in view (its area, version and route), nothing before a page or after the uninstall', () => {
    const item: CommerceItem = { id: '12', name: 'Tehla', variant: 'P+D 44', price: 1230, quantity: 2 };
    install({ flushMs: 10 });
    // No page shown yet: nothing to attribute it to.
    bus.emit('basket:added', { item, basketTotal: 2460 });
    setCurrentArea('catalog', '1.4.0', 'product');
    bus.emit('basket:added', { item, basketTotal: 2460 });
    setCurrentArea('content', '2.0.0', 'page');
    bus.emit('basket:added', { item, basketTotal: 4920 });
    // A page of an area without a released version reports nothing.
    setCurrentArea('account', null, 'account');
    bus.emit('basket:added', { item, basketTotal: 7380 });
    vi.advanceTimersByTime(10);
    expect(events()).toEqual([
      { type: 'basket-add', area: 'catalog', version: '1.4.0', route: 'product' },
      { type: 'basket-add', area: 'content', version: '2.0.0', route: 'page' },
    ]);
    // The price and the basket's total never leave the browser.
    expect(JSON.stringify(sent)).not.toContain('1230');

    uninstall!();
    uninstall = null;
    sent = [];
    bus.emit('basket:added', { item, basketTotal: 2460 });
    vi.advanceTimersByTime(10);
    expect(sent).toEqual([]);
  });

  it('scrubs messages: no query strings, e-mail addresses and long numbers masked, 300 characters at most', () => {
    expect(scrubMessage('GET https://shop.example.sk/api/orders/abc?token=s3cret&email=a%40b.sk#x failed')).toBe(
      'GET https://shop.example.sk/api/orders/abc failed',
    );
    expect(scrubMessage('fetch /api/products?q=tehla%20porotherm failed')).toBe('fetch /api/products failed');
    expect(
      scrubMessage('no user jan.novak@example.sk, order 20261123001, phone 0905 123 456, card 4111-1111-1111-1111, v1.2.3 (12345)'),
    ).toBe('no user [email], order [number], phone [number], card [number], v1.2.3 (12345)');
    expect(scrubMessage('line one\n    at foo (x.js:1:2)')).toBe('line one at foo (x.js:1:2)');
    expect(scrubMessage('x'.repeat(1000))).toHaveLength(300);

    install({ flushMs: 10 });
    reportError('uncaught', 'content', '1.0.0', `Chyba pre jana@example.sk na /blog?page=2 ${'y'.repeat(400)}`);
    vi.advanceTimersByTime(10);
    const [event] = events();
    expect(event!.message).toHaveLength(300);
    expect(event!.message!.startsWith('Chyba pre [email] na /blog yyy')).toBe(true);
  });
});

describe('limits of a page load', () => {
  it('samples once per page load: views and errors together, or nothing', () => {
    const random = vi.fn(() => 0.7);
    install({ sampleRate: 0.5, random, flushMs: 10 });
    reportPageView('catalog', '1.0.0', 'home');
    reportError('uncaught', 'catalog', '1.0.0', 'boom');
    vi.advanceTimersByTime(10);
    window.dispatchEvent(new Event('pagehide'));
    expect(sent).toEqual([]);
    expect(random).toHaveBeenCalledTimes(1);

    // The next page load draws again.
    uninstall!();
    random.mockReturnValue(0.3);
    install({ sampleRate: 0.5, random, flushMs: 10 });
    reportPageView('catalog', '1.0.0', 'home');
    reportError('uncaught', 'catalog', '1.0.0', 'boom');
    reportPageView('catalog', '1.0.0', 'product');
    vi.advanceTimersByTime(10);
    expect(events().map((e) => e.type)).toEqual(['view', 'error', 'view']);
    expect(random).toHaveBeenCalledTimes(2);

    uninstall!();
    sent = [];
    install({ sampleRate: 0, random: () => 0, flushMs: 10 });
    reportPageView('catalog', '1.0.0', 'home');
    vi.advanceTimersByTime(10);
    expect(sent).toEqual([]);
  });

  it('reports the same error message once per page load (after scrubbing)', () => {
    install({ flushMs: 10 });
    for (let i = 0; i < 5; i += 1) reportError('uncaught', 'catalog', '1.0.0', 'TypeError: price is undefined');
    reportError('uncaught', 'catalog', '1.0.0', 'no user a@example.sk');
    reportError('uncaught', 'catalog', '1.0.0', 'no user b@example.sk');
    reportError('rejection', 'catalog', '1.0.0', 'TypeError: price is undefined');
    reportError('uncaught', 'checkout', '1.0.0', 'TypeError: price is undefined');
    vi.advanceTimersByTime(10);
    reportError('uncaught', 'catalog', '1.0.0', 'TypeError: price is undefined');
    vi.advanceTimersByTime(10);
    expect(events().map((e) => `${e.area} ${e.kind} ${e.message}`)).toEqual([
      'catalog uncaught TypeError: price is undefined',
      'catalog uncaught no user [email]',
      'catalog rejection TypeError: price is undefined',
      'checkout uncaught TypeError: price is undefined',
    ]);
  });

  it('sends at most maxEventsPerPage events per page load', () => {
    install({ maxEventsPerPage: 5, maxBatch: 2, flushMs: 10 });
    for (let i = 0; i < 8; i += 1) reportPageView('catalog', '1.0.0', 'product');
    reportError('uncaught', 'catalog', '1.0.0', 'late error');
    vi.advanceTimersByTime(10);
    expect(events()).toHaveLength(5);
    expect(sent.map((batch) => batch.events.length)).toEqual([2, 2, 1]);
  });
});

describe('transport', () => {
  it('uses navigator.sendBeacon with a string body by default', () => {
    const sendBeacon = vi.fn(() => true);
    const fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('navigator', { ...navigator, sendBeacon });
    vi.stubGlobal('fetch', fetchMock);
    uninstall = installTelemetry({ flushMs: 10 });
    reportPageView('account', '1.0.0', 'account');
    vi.advanceTimersByTime(10);
    expect(sendBeacon).toHaveBeenCalledWith(
      '/api/telemetry',
      JSON.stringify({ events: [{ type: 'view', area: 'account', version: '1.0.0', route: 'account' }] }),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('falls back to fetch with keepalive when the beacon refuses the batch or is missing', async () => {
    const fetchMock = vi.fn((..._args: unknown[]) => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetchMock);
    const send = install({ flushMs: 10 }, false);
    reportPageView('catalog', '1.0.0', 'home');
    vi.advanceTimersByTime(10);
    expect(send).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/telemetry');
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect(JSON.parse(init.body as string)).toEqual({ events: [{ type: 'view', area: 'catalog', version: '1.0.0', route: 'home' }] });
    // A failed report is not an unhandled rejection of its own.
    await vi.waitFor(() => expect(fetchMock.mock.results[0]?.type).toBe('return'));

    uninstall!();
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: undefined });
    uninstall = installTelemetry({ flushMs: 10 });
    reportPageView('catalog', '1.0.0', 'home');
    vi.advanceTimersByTime(10);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    uninstall();
    vi.stubGlobal('navigator', {
      ...navigator,
      sendBeacon: () => {
        throw new TypeError('Illegal invocation');
      },
    });
    uninstall = installTelemetry({ flushMs: 10 });
    reportPageView('catalog', '1.0.0', 'home');
    vi.advanceTimersByTime(10);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});
