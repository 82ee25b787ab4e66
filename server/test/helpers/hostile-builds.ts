/**
 * A hostile area release for the server-render sandbox's tests (server/test/web/render-sandbox.test.ts,
 * server/test-cluster/render-sandbox.test.ts): its server build, on its page's render, tries what an
 * attacker who controls one team's release would: read the server's secrets and files, write a
 * file, reach PostgreSQL and Redis on loopback, start a process, escape to the host's realm; and
 * on two other pages loops forever or allocates without bound. Two more stand for a machine too
 * busy to give the renderer a core: their render waits without using CPU, 0.6 s (within the page's
 * wall-clock bound, so it still renders) or 30 s (past it). The probe page writes each
 * attempt's outcome into its HTML (`data-attempt="<name>">blocked|…`), so a test asserts every one.
 * Also a small shell build that renders the area's page (the real shell's server contract).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeAreaBuild, fakeShellBuild } from '@shop/release/testing';

export const HOSTILE_ROUTES = [
  { name: 'hostile-probe', path: '/hostile/probe', module: './ProbePage', layout: 'default', serverRender: true },
  { name: 'hostile-loop', path: '/hostile/loop', module: './LoopPage', layout: 'default', serverRender: true },
  { name: 'hostile-alloc', path: '/hostile/alloc', module: './AllocPage', layout: 'default', serverRender: true },
  { name: 'hostile-slow', path: '/hostile/slow', module: './SlowPage', layout: 'default', serverRender: true },
  { name: 'hostile-stuck', path: '/hostile/stuck', module: './StuckPage', layout: 'default', serverRender: true },
];

export type HostileTargets = {
  /** A file the server reads (in DATA_DIR). */
  secretFile: string;
  /** A file the build tries to create. */
  writeFile: string;
  /** Loopback ports the build tries to connect to (PostgreSQL, Redis, a listener the test watches). */
  ports: number[];
  /** A server variable the build tries to read. */
  variable: string;
};

/** The hostile pages' code (ProbePage, LoopPage, AllocPage, SlowPage, StuckPage), for a CommonJS server build whose `require` is the renderer's. */
function hostilePages(targets: HostileTargets): string {
  return `const React = require('react');
const kernel = require('@shop/shared-kernel');
const targets = ${JSON.stringify(targets)};
/** 'blocked: <why>' when the attempt threw or found nothing; what it got otherwise. */
function attempt(run) {
  try {
    const got = run();
    return got === undefined || got === null || got === false ? 'blocked: nothing' : 'GOT ' + String(got).slice(0, 80);
  } catch (error) {
    return 'blocked: ' + String(error && error.message).slice(0, 80);
  }
}
async function attemptAsync(run) {
  try {
    const got = await run();
    return got === undefined || got === null ? 'blocked: nothing' : 'GOT ' + String(got).slice(0, 80);
  } catch (error) {
    return 'blocked: ' + String(error && error.message).slice(0, 80);
  }
}
const realm = () => Function('return this')();
const hostProcess = () => {
  if (typeof process !== 'undefined') return process;
  const escaped = ({}).constructor.constructor('return typeof process === "undefined" ? undefined : process')();
  if (escaped) return escaped;
  return realm().process;
};
const fsModule = () => {
  const host = hostProcess();
  if (host && host.getBuiltinModule) return host.getBuiltinModule('fs');
  return require('fs');
};
const synchronous = () => ({
  'read-variable': attempt(() => hostProcess().env[targets.variable]),
  'list-variables': attempt(() => Object.keys(hostProcess().env).length),
  'read-file': attempt(() => fsModule().readFileSync(targets.secretFile, 'utf8')),
  'read-node-fs': attempt(() => require('node:fs').readFileSync(targets.secretFile, 'utf8')),
  'write-file': attempt(() => (fsModule().writeFileSync(targets.writeFile, 'pwned'), 'written')),
  'spawn-process': attempt(() => require('child_process').execSync('id').toString()),
  'spawn-through-process': attempt(() => hostProcess().binding('spawn_sync')),
  'tcp-net': attempt(() => targets.ports.map((port) => require('net').connect(port, '127.0.0.1')).length),
  'global-fetch': attempt(() => typeof fetch === 'function' && 'fetch exists'),
  'websocket': attempt(() => typeof WebSocket === 'function' && 'WebSocket exists'),
  'xhr': attempt(() => typeof XMLHttpRequest === 'function' && 'XMLHttpRequest exists'),
  'host-require': attempt(() => typeof module !== 'undefined' && module.constructor && module.constructor._load && 'Module._load exists'),
  'wasi-or-worker': attempt(() => (typeof Worker === 'function' && 'Worker exists') || (typeof SharedWorker === 'function' && 'SharedWorker')),
});
const asynchronous = () =>
  Promise.all([
    attemptAsync(() => import('node:fs').then((fs) => fs.readFileSync(targets.secretFile, 'utf8'))),
    attemptAsync(() => Promise.all(targets.ports.map((port) => fetch('http://127.0.0.1:' + port + '/')))),
    attemptAsync(() => kernel.api.call('GET /api/site')),
  ]).then(([dynamicImport, fetchLoopback, kernelClient]) => ({
    'dynamic-import-fs': dynamicImport,
    'fetch-loopback': fetchLoopback,
    'kernel-client': kernelClient,
  }));

let outcomes = null;
function ProbePage() {
  outcomes ??= asynchronous().then((late) => Object.assign(synchronous(), late));
  const all = React.use(outcomes);
  return React.createElement('ul', { id: 'attempts' },
    Object.entries(all).map(([name, outcome]) => React.createElement('li', { key: name, 'data-attempt': name }, outcome)));
}
function LoopPage() {
  for (;;) {}
}
function AllocPage() {
  const kept = [];
  for (let i = 0; ; i += 1) kept.push(new Array(100000).fill(i));
}
/** Blocks the render for ms without using CPU, as a renderer not given a core would. */
function waitWithoutCpu(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
function SlowPage() {
  waitWithoutCpu(600);
  return React.createElement('p', { id: 'slow-page' }, 'Pomalá stránka');
}
function StuckPage() {
  waitWithoutCpu(30000);
  return null;
}
`;
}

/** The area's server build: CommonJS, its imports the shared packages only, as the kernel's build writes it. */
export function hostileServerEntry(targets: HostileTargets): string {
  return `'use strict';
${hostilePages(targets)}
exports.area = 'content';
exports.modules = {
  './ProbePage': () => Promise.resolve({ default: ProbePage }),
  './LoopPage': () => Promise.resolve({ default: LoopPage }),
  './AllocPage': () => Promise.resolve({ default: AllocPage }),
  './SlowPage': () => Promise.resolve({ default: SlowPage }),
  './StuckPage': () => Promise.resolve({ default: StuckPage }),
};
`;
}

/**
 * Code appended to a real area's server build (its CommonJS `exports.modules`): the exposed modules
 * named in `pages` become the hostile pages, the rest stay.
 */
export function hostileOverride(targets: HostileTargets, pages: Record<string, 'ProbePage' | 'LoopPage' | 'AllocPage'>): string {
  return `
;(() => {
${hostilePages(targets)}
  const hostile = { ProbePage, LoopPage, AllocPage };
  const chosen = ${JSON.stringify(pages)};
  exports.modules = Object.fromEntries(Object.entries(exports.modules).map(([name, load]) =>
    [name, chosen[name] ? () => Promise.resolve({ default: hostile[chosen[name]] }) : load]));
})();
`;
}

/**
 * A shell server build with the real contract: the hostile area's routes from the releases it is
 * given, no declared data, the area's page rendered inside a Suspense boundary like the shell's.
 */
export const SMALL_SHELL_SERVER = `'use strict';
const React = require('react');
exports.createShellServer = ({ releases, loadModule }) => {
  const routes = Object.entries(releases).flatMap(([area, release]) => (release.routes || []).map((route) => ({ ...route, area })));
  const routeForPath = (path) => routes.find((route) => route.path === path);
  const pages = new Map();
  const pageOf = (route) => {
    if (!pages.has(route.module)) pages.set(route.module, React.lazy(() => loadModule(route.area + '/' + route.module.slice(2))));
    return pages.get(route.module);
  };
  return {
    routeForPath,
    isPage: (path) => routeForPath(path) !== undefined,
    pageData: async () => ({ loads: [], headBeforeData: false }),
    page: ({ url, server }) => {
      const route = routeForPath(url.split('?')[0]);
      server.meta && server.meta({ title: route ? route.name : 'nenájdené' });
      const Page = route ? pageOf(route) : null;
      return React.createElement('main', { className: 'shell-main' },
        Page ? React.createElement(React.Suspense, { fallback: React.createElement('p', null, 'načítava sa') }, React.createElement(Page)) : null);
    },
  };
};
`;

/** The hostile area's build folder (browser files as fake-builds makes them, and the server build). */
export function hostileAreaBuild(targets: HostileTargets): string {
  const dir = fakeAreaBuild('content', { exposes: HOSTILE_ROUTES.map((route) => route.module), routes: HOSTILE_ROUTES });
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server', 'entry.cjs'), hostileServerEntry(targets));
  return dir;
}

/** A shell build whose server build is SMALL_SHELL_SERVER. */
export function smallShellBuild(): string {
  const dir = fakeShellBuild();
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>obchod</title><!--shop-config--></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server', 'entry.cjs'), SMALL_SHELL_SERVER);
  return dir;
}
