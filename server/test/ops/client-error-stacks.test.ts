/**
 * Stack traces a team can read: an area built by Vite (minified, hidden source maps) is released
 * with its maps listed in the signed manifest; its code throws in Node's V8 (the engine of the
 * shop's Chromium), and the stack the shell would report is mapped by the server to the original
 * file, line and function of that version, counted into its group and listed on
 * GET /api/ops/client-errors. A map whose bytes differ from the signed manifest is not used. No map
 * is ever sent by the asset origin or by the shop's origin.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deploy,
  generateSigningKey,
  localDirectoryStorage,
  MANIFEST_FILE,
  readSigningKey,
  releaseIntegrity,
  sha384,
  type ReleaseManifest,
} from '@shop/release';
import { clientStackFrames } from '@shop/shared-kernel/rules';
import type { MappedStackFrame } from '@shop/shared-kernel/contract';
import { createStackMapper, enclosingFunction, type FrameOutcome } from '../../src/domains/ops/telemetry/stack-mapper.ts';
import { clientErrorsReader } from '../../src/domains/ops/console/client-errors.ts';
import { topClientError } from '../../src/domains/ops/telemetry/client-errors.repository.ts';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { buildStaticOrigin } from '../../src/web/static-origin.ts';
import { releasedFileCheck } from '../../src/web/verified-files.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { fakeShellBuild } from '@shop/release/testing';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** The area's own code: the line that throws is line 3 of src/basket-rules.ts, in priceOfLine. */
const BASKET_RULES = `export function priceOfLine(line: { quantity: number; unitPrice: number }): number {
  if (!(line.quantity > 0)) {
    throw new RangeError('Množstvo musí byť kladné, nie ' + String(line.quantity));
  }
  return line.quantity * line.unitPrice;
}
`;
const CART_PAGE = `import { priceOfLine } from './basket-rules.ts';

export function basketTotal(lines: { quantity: number; unitPrice: number }[]): number {
  let total = 0;
  for (const line of lines) total += priceOfLine(line);
  return total;
}
`;

/** A checkout build made by Vite as the areas' builds are: minified, esnext, hidden source maps. */
async function viteAreaBuild(): Promise<{ dir: string; page: string }> {
  const project = tempDir('area-source-');
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src', 'basket-rules.ts'), BASKET_RULES);
  writeFileSync(join(project, 'src', 'cart-page.ts'), CART_PAGE);
  // Where a part's build goes: dist/ in its folder (the maps name the sources relative to it).
  const dir = join(project, 'dist');
  await build({
    configFile: false,
    root: project,
    logLevel: 'silent',
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'esnext',
      minify: true,
      sourcemap: 'hidden',
      rolldownOptions: {
        input: { 'cart-page': join(project, 'src', 'cart-page.ts') },
        preserveEntrySignatures: 'exports-only',
        output: { format: 'es', entryFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });
  const page = `assets/${readdirSync(join(dir, 'assets')).find((name) => name.endsWith('.js'))!}`;
  writeFileSync(join(dir, 'remoteEntry.js'), 'export const area = "checkout";');
  const routes = [{ name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'default' }];
  writeFileSync(join(dir, 'area.json'), JSON.stringify({ area: 'checkout', kernel: '1.0.0', exposes: ['./CartPage'], routes }));
  writeFileSync(
    join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: 'checkout',
      metaData: { remoteEntry: { name: 'remoteEntry.js' } },
      exposes: [{ name: 'CartPage', assets: { js: { sync: [page], async: [] } } }],
    }),
  );
  return { dir, page };
}

const key = generateSigningKey();
const signingKey = readSigningKey(key.privateKeyPem);
const origin = tempDir('stacks-origin-');
const storage = localDirectoryStorage(origin);
const integrity = releaseIntegrity({
  storage,
  keys: async () => [{ keyId: key.keyId, owner: 'shop', area: null, publicKey: key.publicKeyPem }],
});
const outcomes: FrameOutcome[] = [];
const refused: string[] = [];
const mapper = createStackMapper({
  storage,
  integrity,
  onFrame: (outcome) => outcomes.push(outcome),
  onMapRefused: (ref, outcome) => refused.push(`${ref.file}.map ${outcome}`),
});
let version = '';
let shellVersion = '';
let page = '';
let manifest: ReleaseManifest;
let released: ReadonlyMap<string, ReadonlySet<string>>;
let api: TestApi;
let opsBase = '';
let operatorCookie = '';

/**
 * The stack a shopper's Chromium reports when the released page code throws: the released bytes run
 * in a Node process of their own (V8, as in Chromium), untouched by the test runner.
 */
function thrownStack(): { message: string; stack: string } {
  const file = pathToFileURL(join(origin, 'remotes', 'checkout', version, page)).href;
  const script = `const { basketTotal } = await import(${JSON.stringify(file)});
try { basketTotal([{ quantity: 2, unitPrice: 3 }, { quantity: 0, unitPrice: 5 }]); }
catch (error) { process.stdout.write(JSON.stringify({ message: error.name + ': ' + error.message, stack: error.stack })); }`;
  const thrown = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }) || 'null') as {
    message: string;
    stack: string;
  } | null;
  if (!thrown) throw new Error('the released code did not throw');
  // As loaded by a browser: from the asset origin, by the version's path.
  return { message: thrown.message, stack: thrown.stack.split(file).join(`https://cdn.example/remotes/checkout/${version}/${page}`) };
}

beforeAll(async () => {
  const area = await viteAreaBuild();
  page = area.page;
  version = (
    await deploy({
      storage,
      part: 'checkout',
      distDir: area.dir,
      packageVersion: '1.0.0',
      provenance: { who: 'team' },
      init: true,
      signingKey,
    })
  ).version;
  const shell = fakeShellBuild();
  mkdirSync(join(shell, 'assets'));
  writeFileSync(join(shell, 'assets', 'index-Ab12.js'), 'export const shell = 1;');
  writeFileSync(
    join(shell, 'assets', 'index-Ab12.js.map'),
    JSON.stringify({ version: 3, sources: ['src/main.tsx'], names: [], mappings: 'AAAA' }),
  );
  shellVersion = (
    await deploy({ storage, part: 'shell', distDir: shell, packageVersion: '1.0.0', provenance: { who: 'team' }, signingKey })
  ).version;
  manifest = await integrity.manifest('checkout', version);
  released = new Map([
    ['checkout', new Set([version])],
    ['shell', new Set([shellVersion])],
  ]);
  api = await startTestApi({
    releasedVersions: async () => released,
    stackMapper: mapper,
    // The operator's console calls as the shop's server builds them, on the operator origin.
    operatorConsole: ({ db }) => ({ storage, publicUrl: 'https://shop.example', clientErrors: clientErrorsReader(db) }),
  });
  opsBase = api.opsUrl;
  operatorCookie = (await api.operator()).cookie;
});

afterAll(async () => {
  await api?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('source maps in a release', () => {
  it('are listed in the signed manifest with their hashes, one beside each minified file, and no file names its map', async () => {
    const maps = Object.keys(manifest.files).filter((file) => file.endsWith('.map'));
    expect(maps).toContain(`${page}.map`);
    const prefix = join(origin, 'remotes', 'checkout', version);
    for (const map of maps) {
      const bytes = readFileSync(join(prefix, map));
      expect(manifest.files[map]).toEqual({ sha384: sha384(bytes), size: bytes.length });
    }
    expect(readFileSync(join(prefix, page), 'utf8')).not.toContain('sourceMappingURL');
    expect(readFileSync(join(prefix, MANIFEST_FILE), 'utf8')).toContain(`"${page}.map"`);
  });
});

describe('a client error’s stack', () => {
  it('is mapped to the original file, line and function of the version that threw', async () => {
    const { stack } = thrownStack();
    const frames = clientStackFrames(stack);
    // What the browser reports is the minified position: one long line.
    expect(frames[0]).toMatchObject({ url: `https://cdn.example/remotes/checkout/${version}/${page}`, line: 1 });
    const mapped = await mapper.map({ area: 'checkout', version }, frames, released);
    expect(mapped[0]).toEqual<MappedStackFrame>({
      fn: 'priceOfLine',
      file: 'src/basket-rules.ts',
      line: 3,
      column: expect.any(Number),
      mapped: true,
    });
    expect(mapped.find((frame) => frame.file === 'src/cart-page.ts')).toMatchObject({ fn: 'basketTotal', line: 5, mapped: true });
  });

  it('is grouped by area, version, route and top frame on GET /api/ops/client-errors, with the mapped stack', async () => {
    const { message, stack } = thrownStack();
    const report = {
      type: 'error',
      area: 'checkout',
      version,
      route: 'checkout-cart',
      kind: 'uncaught',
      message,
      stack: clientStackFrames(stack),
    };
    const headers = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' };
    for (let i = 0; i < 2; i += 1) {
      // Two page loads, each reporting the error once.
      const sent = await api.request('POST', '/api/telemetry', { json: { events: [report] }, headers });
      expect(sent.status).toBe(204);
    }
    const refusedAnonymously = await fetch(`${opsBase}/api/ops/client-errors`);
    expect(refusedAnonymously.status).toBe(401);
    const answer = await fetch(`${opsBase}/api/ops/client-errors?hours=1&area=checkout&version=${version}`, {
      headers: { cookie: operatorCookie },
    });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: { groups: { topFrame: string; count: number; stack: MappedStackFrame[] }[] } };
    expect(data.groups).toHaveLength(1);
    expect(data.groups[0]).toMatchObject({
      area: 'checkout',
      version,
      route: 'checkout-cart',
      kind: 'uncaught',
      message: 'RangeError: Množstvo musí byť kladné, nie 0',
      count: 2,
    });
    expect(data.groups[0]!.topFrame).toMatch(/^priceOfLine \(src\/basket-rules\.ts:3:\d+\)$/);
    expect(data.groups[0]!.stack[0]).toMatchObject({ fn: 'priceOfLine', file: 'src/basket-rules.ts', line: 3, mapped: true });
    // Errors without a stack (a failed load) are grouped by their message instead.
    for (const message of ['./CartPage: AreaLoadError', './ContactPage: AreaLoadError']) {
      const failed = { type: 'error', area: 'checkout', version, route: 'checkout-cart', kind: 'load-failed', message };
      expect((await api.request('POST', '/api/telemetry', { json: { events: [failed] }, headers })).status).toBe(204);
    }
    const all = await fetch(`${opsBase}/api/ops/client-errors?hours=1&area=checkout`, { headers: { cookie: operatorCookie } });
    const { data: grouped } = (await all.json()) as { data: { groups: { topFrame: string; message: string; count: number }[] } };
    // Most reports first; the two failed loads (one report each) in either order.
    expect(grouped.groups[0]).toMatchObject({ message: 'RangeError: Množstvo musí byť kladné, nie 0', count: 2 });
    expect(
      grouped.groups
        .slice(1)
        .map((group) => [group.message, group.topFrame, group.count])
        .sort(),
    ).toEqual([
      ['./CartPage: AreaLoadError', '', 1],
      ['./ContactPage: AreaLoadError', '', 1],
    ]);
    // What a canary's abort for errors names.
    expect(await topClientError(api.db, 'checkout', version, new Date(Date.now() - 60_000))).toMatch(
      /^"RangeError: Množstvo musí byť kladné, nie 0" at priceOfLine \(src\/basket-rules\.ts:3:\d+\) on checkout-cart, 2 reports$/,
    );
    expect(await topClientError(api.db, 'checkout', '1.0.0-other', new Date(0))).toBeNull();
    const other = await fetch(`${opsBase}/api/ops/client-errors?hours=1&area=catalog`, { headers: { cookie: operatorCookie } });
    expect(((await other.json()) as { data: { groups: unknown[] } }).data.groups).toEqual([]);
    const bad = await fetch(`${opsBase}/api/ops/client-errors?hours=0`, { headers: { cookie: operatorCookie } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBeTruthy();
  });

  it('is left as reported for a version not in force or a map that differs from the signed manifest', async () => {
    const { stack } = thrownStack();
    const frames = clientStackFrames(stack);
    const notReleased = await mapper.map({ area: 'checkout', version }, frames, new Map([['checkout', new Set(['1.0.0-other'])]]));
    expect(notReleased[0]).toMatchObject({ file: `/remotes/checkout/${version}/${page}`, line: 1, mapped: false });

    // The same release on another origin whose map was changed after signing: the map is not used.
    const copy = tempDir('stacks-tampered-');
    rmSync(copy, { recursive: true });
    cpSync(origin, copy, { recursive: true });
    const mapFile = join(copy, 'remotes', 'checkout', version, `${page}.map`);
    writeFileSync(mapFile, readFileSync(mapFile, 'utf8').replace('priceOfLine', 'innocentName'));
    const tamperedStorage = localDirectoryStorage(copy);
    const tamperedRefusals: string[] = [];
    const tampered = createStackMapper({
      storage: tamperedStorage,
      integrity: releaseIntegrity({
        storage: tamperedStorage,
        keys: async () => [{ keyId: key.keyId, owner: 'shop', area: null, publicKey: key.publicKeyPem }],
      }),
      onMapRefused: (ref, outcome) => tamperedRefusals.push(`${ref.file}.map ${outcome}`),
    });
    const mapped = await tampered.map({ area: 'checkout', version }, frames, released);
    expect(mapped.every((frame) => !frame.mapped)).toBe(true);
    expect(tamperedRefusals).toContain(`${page}.map mismatch`);
    expect(refused).toEqual([]);
  });
});

describe('no source map is sent to a browser', () => {
  let assets: FastifyInstance;
  let shop: FastifyInstance;
  let assetBase = '';
  let shopBase = '';
  beforeAll(async () => {
    const check = releasedFileCheck(integrity, () => undefined);
    shop = Fastify();
    assets = await buildStaticOrigin({ storage, logger: shop.log, check });
    assetBase = await assets.listen({ port: 0, host: '127.0.0.1' });
    shop.setErrorHandler(errorHandler);
    await shop.register(shellHost, shellHostOptions({ storage, assetOrigin: assetBase, integrity, check }));
    shopBase = await shop.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await assets?.close();
    await shop?.close();
  });

  const expectNotFound = async (url: string) => {
    const response = await fetch(url);
    expect(response.status, url).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code, url).toBe('not_found');
    expect(body.error.message, url).toMatch(/\S/);
  };

  it('answers 404 in the error shape for every map the manifests list, on the asset origin and on the shop’s origin', async () => {
    const shellManifest = await integrity.manifest('shell', shellVersion);
    const areaMaps = Object.keys(manifest.files).filter((file) => file.endsWith('.map'));
    const shellMaps = Object.keys(shellManifest.files).filter((file) => file.endsWith('.map'));
    expect(areaMaps.length).toBeGreaterThan(0);
    expect(shellMaps).toEqual(['assets/index-Ab12.js.map']);
    // The files themselves are served: only their maps are not.
    expect((await fetch(`${assetBase}/remotes/checkout/${version}/${page}`)).status).toBe(200);
    expect((await fetch(`${shopBase}/assets/index-Ab12.js`)).status).toBe(200);
    for (const map of areaMaps) {
      for (const encoding of ['identity', 'br', 'gzip']) {
        const response = await fetch(`${assetBase}/remotes/checkout/${version}/${map}`, { headers: { 'accept-encoding': encoding } });
        expect(response.status).toBe(404);
      }
      await expectNotFound(`${assetBase}/remotes/checkout/${version}/${map}`);
      await expectNotFound(`${shopBase}/remotes/checkout/${version}/${map}`);
      await expectNotFound(`${shopBase}/${map}`);
    }
    for (const map of shellMaps) {
      await expectNotFound(`${shopBase}/${map}`);
      await expectNotFound(`${shopBase}/${map}?v=1`);
      await expectNotFound(`${shopBase}/shells/shell/${shellVersion}/${map}`);
    }
  });
});

describe('the function a mapped line is in', () => {
  const source = [
    'export default function CartPage() {', // 1
    '  const onClear = () => {', // 2
    '    clear();', // 3
    '  };', // 4
    '  const total = (lines) => lines.length;', // 5
    '  if (empty) {', // 6
    '    return null;', // 7
    '  }', // 8
    '  return <h1>Košík</h1>;', // 9
    '}', // 10
    'const price = async (line) => {', // 11
    '  throw new Error("x");', // 12
    '};', // 13
  ].join('\n');

  it('is the declaration whose block is still open there, not one declared and closed above', () => {
    expect(enclosingFunction(source, 9)).toBe('CartPage');
    expect(enclosingFunction(source, 7)).toBe('CartPage');
    expect(enclosingFunction(source, 3)).toBe('onClear');
    expect(enclosingFunction(source, 12)).toBe('price');
    expect(enclosingFunction(source, 5)).toBe('total');
    expect(enclosingFunction(null, 3)).toBeNull();
  });
});
