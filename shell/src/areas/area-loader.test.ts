import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The federation runtime is the boundary: it loads the remote or fails; fetch is what the loader asks again.
const runtime = vi.hoisted(() => ({ loadRemote: vi.fn(), registerRemotes: vi.fn() }));
vi.mock('@module-federation/runtime', () => runtime);
const telemetry = vi.hoisted(() => ({ reportError: vi.fn() }));
vi.mock('../app/telemetry.ts', () => telemetry);

const { registerAreas, loadAreaModule, forgetFailedLoad, areaOrigin, setRetryWait, RETRY_DELAYS_MS } = await import('./area-loader.ts');
const { forgetDigests } = await import('./load-failure.ts');

const version = '1.0.0-a';
const entry = `remotes/checkout/${version}/remoteEntry.js`;
const cdnEntry = `http://cdn.test/${entry}`;
const chunk = `http://cdn.test/remotes/checkout/${version}/assets/cart-page-x.js`;
const signed = new TextEncoder().encode('export default 1;');
const Page = () => null;

async function digestOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}

const chunkFailed = () => new TypeError(`Failed to fetch dynamically imported module: ${chunk}`);
const waits: number[] = [];

beforeEach(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  runtime.loadRemote.mockReset();
  runtime.registerRemotes.mockReset();
  telemetry.reportError.mockReset();
  waits.length = 0;
  setRetryWait(async (ms) => void waits.push(ms));
  const integrity = { [cdnEntry]: await digestOf(signed), [chunk]: await digestOf(signed), [`/${entry}`]: await digestOf(signed) };
  document.head.innerHTML = `<script type="importmap">${JSON.stringify({ integrity })}</script>`;
  forgetDigests();
  registerAreas(
    { checkout: { version, entry, kernel: '3.0.0', exposes: ['./CartPage'], routes: [] } },
    'http://cdn.test',
    'http://shop.test',
  );
});
afterEach(() => {
  for (const module of ['./CartPage', './ContactPage', './OrderPage']) forgetFailedLoad('checkout', module);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('loading an area when its origin fails', () => {
  it('tries again with back-off, then from the shop’s own origin, and reports the load as recovered', async () => {
    // The asset origin cannot be reached (fetch fails too); the shop's origin answers.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    runtime.loadRemote.mockRejectedValueOnce(chunkFailed()).mockRejectedValueOnce(chunkFailed()).mockResolvedValueOnce({ default: Page });
    const loaded = await loadAreaModule('checkout', './CartPage');
    expect(loaded.default).toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(3);
    expect(waits).toEqual(RETRY_DELAYS_MS.slice(0, 2));
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'checkout', entry: `http://shop.test/${entry}`, type: 'module' }], {
      force: true,
    });
    expect(areaOrigin('checkout')).toBe('shop');
    expect(telemetry.reportError).toHaveBeenCalledWith('recovered', 'checkout', version, './CartPage: loaded from shop on attempt 3');
    expect(telemetry.reportError).not.toHaveBeenCalledWith('load-failed', expect.anything(), expect.anything(), expect.anything());
  });

  it('answers a 5xx as a network failure and gives up after the last attempt', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503 })),
    );
    runtime.loadRemote.mockRejectedValue(chunkFailed());
    await expect(loadAreaModule('checkout', './ContactPage')).rejects.toMatchObject({ name: 'AreaLoadError', failure: 'network' });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1);
    expect(telemetry.reportError).not.toHaveBeenCalled();
  });

  it('does not try again a file whose bytes are not the signed ones, nor one the origin does not have', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('export default 2;', { status: 200 })),
    );
    runtime.loadRemote.mockRejectedValue(chunkFailed());
    await expect(loadAreaModule('checkout', './OrderPage')).rejects.toMatchObject({ failure: 'tampered' });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);

    forgetFailedLoad('checkout', './OrderPage');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    await expect(loadAreaModule('checkout', './OrderPage')).rejects.toMatchObject({ failure: 'refused' });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([]);
  });
});
