/**
 * What runs inside a renderer's isolate (bundled into one script at build time, see
 * sandbox-build.ts): the server's single copies of the packages the parts share (React, the legacy
 * renderToString, the kernel singleton, zustand, mitt) behind a `require` that serves exactly
 * those (the specifiers server/entry.cjs may import, as the kernel's SERVER_SHARED leaves them out),
 * the parts' server builds as the renderer defines them, and the calls the renderer makes:
 * `plan` (the page's route and declared data) and `render` (the page's HTML and head).
 *
 * A context holds one shell instance (one choice of area versions) and at most the one area its
 * page needs: no other team's code runs where a page is rendered. Nothing here can reach the
 * network, a file, the environment or a process: the isolate has none of them.
 *
 * Both calls are synchronous for the renderer: a call starts the work, and whatever the parts
 * wait for (a module's promise, `use()`, `React.lazy`) settles in the microtasks the isolate runs
 * after the call; the renderer then collects the result with a second call (`collect`). What has
 * not settled by then never will (there are no timers, no I/O): it is left to the browser.
 */
import './web-globals.ts';
import * as zustand from 'zustand';
import mitt from 'mitt';
import * as kernel from '@shop/shared-kernel';
import type {
  BasketEntry,
  DeclaredPageData,
  ServerRender,
  SettledLoad,
  ShellServer,
  ShellServerModule,
} from '@shop/shared-kernel/contract';
import type { PageMetaInput, PagePicture } from '@shop/shared-kernel/contract';
import { takeLogs } from './web-globals.ts';

type CommonJs = Record<string, unknown>;
type Started = { ready(): boolean; finish(abortReason: unknown): string };
type SandboxServer = { startRender(children: unknown, onError: (error: unknown) => void): Started };

/* eslint-disable @typescript-eslint/no-require-imports -- the same CommonJS module objects the in-process render gave */
const React = require('react') as CommonJs & { createElement: (...args: unknown[]) => unknown };
const server = require('react-dom/server') as CommonJs & SandboxServer;
const SHARED: Record<string, unknown> = {
  react: React,
  'react/jsx-runtime': require('react/jsx-runtime') as unknown,
  'react-dom': require('react-dom') as unknown,
  // The legacy build's renderToString: the same markup, no streams (none exist here).
  'react-dom/server': { renderToString: server.renderToString, renderToStaticMarkup: server.renderToStaticMarkup, version: server.version },
  zustand,
  mitt: { default: mitt, __esModule: true },
  '@shop/shared-kernel': kernel,
};
/* eslint-enable @typescript-eslint/no-require-imports */

// No network here: a page's data is loaded by the server and handed in.
kernel.configureApi({ fetch: () => Promise.reject(new Error('No network in the server-render sandbox: data comes from the server.')) });

function sharedRequire(file: string) {
  return (specifier: string): unknown => {
    if (!Object.prototype.hasOwnProperty.call(SHARED, specifier))
      throw new Error(`${file} imports ${specifier}, which the server does not provide (only ${Object.keys(SHARED).join(', ')})`);
    return SHARED[specifier];
  };
}

type Factory = (
  exports: CommonJs,
  require: (specifier: string) => unknown,
  module: { exports: CommonJs },
  file: string,
  dir: string,
) => void;

/** Evaluated parts of this context, by id (`<part>/<version>`). */
const parts = new Map<string, CommonJs>();

let shell: ShellServer | null = null;
let areaName: string | null = null;

/** The page's head as its render declared it. */
type Head = {
  meta: PageMetaInput;
  picture: PagePicture | null;
  jsonLd: { id: string; json: string }[];
  styles: { area: string; css: string }[];
};

type Planned = { route: { area: string; serverRender: boolean; name: string } | null; isPage: boolean; declared: DeclaredPageData | null };
/** What a started call left for `collect`. */
let pending:
  | { kind: 'plan'; result?: { ok: true; value: Planned } | { ok: false; error: unknown } }
  | { kind: 'render'; started: Started; head: Head; asked: Set<string>; errors: string[] }
  | null = null;

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const sandbox = {
  /** Runs one part's server build (the renderer wraps its bytes in a call to this); `area`: the area it is, null for the shell. */
  definePart(id: string, factory: Factory): void {
    const module = { exports: {} as CommonJs };
    const file = `/released/${id}/server/entry.cjs`;
    factory(module.exports, sharedRequire(file), module, file, `/released/${id}/server`);
    parts.set(id, module.exports);
  },

  /** Makes this context's shell instance: the shell part with the releases of one choice, and at most one area's build. */
  createShell(shellId: string, areaId: string | null, area: string | null, optionsJson: string): void {
    const module = parts.get(shellId) as ShellServerModule | undefined;
    if (!module || typeof module.createShellServer !== 'function') throw new Error(`${shellId} has no createShellServer`);
    const options = JSON.parse(optionsJson) as Omit<Parameters<ShellServerModule['createShellServer']>[0], 'loadModule'>;
    areaName = area;
    shell = module.createShellServer({
      ...options,
      loadModule: async (key) => {
        const [name, exposed] = key.split('/') as [string, string];
        // Only the area this context renders is here: any other is the browser's to load.
        if (name !== areaName || areaId === null) throw new Error(`area ${name} is not loaded where ${areaName ?? 'the shell'} renders`);
        const modules = (parts.get(areaId) as { modules?: Record<string, () => Promise<unknown>> } | undefined)?.modules;
        const load = modules?.[`./${exposed}`];
        return load ? load() : null;
      },
    });
  },

  /**
   * Starts the page's plan: its route, whether it is a page, its declared data (collected by
   * `collect`). `basketJson`: the request's basket (the server parsed and bounded its cookie).
   */
  plan(url: string, basketJson: string): void {
    const current = requireShell();
    const pathname = url.split('?')[0] ?? '/';
    const route = current.routeForPath(pathname);
    const state: NonNullable<typeof pending> & { kind: 'plan' } = { kind: 'plan' };
    pending = state;
    const planned = (declared: DeclaredPageData | null): Planned => ({
      route: route ? { area: route.area, serverRender: route.serverRender === true, name: route.name } : null,
      isPage: current.isPage(pathname),
      declared: declared
        ? { headBeforeData: declared.headBeforeData, loads: declared.loads.map(({ key }) => ({ key, load: unusable })) }
        : null,
    });
    if (!current.pageData) state.result = { ok: true, value: planned(null) };
    else
      current.pageData(url, { basket: JSON.parse(basketJson) as BasketEntry[] }).then(
        (declared) => void (state.result = { ok: true, value: planned(declared) }),
        (error: unknown) => void (state.result = { ok: false, error }),
      );
  },

  /**
   * Starts a render of the page with the data given (the page's embedded data as JSON: `data` by
   * key, `notFound`); `givenUp`: keys the server will not load (the browser does).
   */
  render(url: string, configJson: string, dataJson: string, givenUpJson: string, origin: string): void {
    const current = requireShell();
    const embedded = JSON.parse(dataJson) as { data: Record<string, SettledLoad>; notFound?: boolean; basket?: BasketEntry[] };
    const givenUp = new Set(JSON.parse(givenUpJson) as string[]);
    const data = new Map(Object.entries(embedded.data));
    const head: Head = { meta: { title: null }, picture: null, jsonLd: [], styles: [] };
    const asked = new Set<string>();
    const errors: string[] = [];
    const render: ServerRender = {
      data,
      notFound: embedded.notFound === true,
      origin,
      ...(embedded.basket ? { basket: embedded.basket } : {}),
      collect: (key) => void (data.has(key) || givenUp.has(key) || asked.add(key)),
      meta: (meta) => void (head.meta = meta),
      picture: (picture) => void (head.picture ??= picture),
      jsonLd: (id, json) => void (head.jsonLd.some((block) => block.id === id) || head.jsonLd.push({ id, json })),
      styles: (area, css) => void (head.styles.some((style) => style.area === area) || head.styles.push({ area, css })),
    };
    current.prepare?.({ url, server: render });
    const element = current.page({ url, config: JSON.parse(configJson) as unknown, server: render });
    // An error inside a Suspense boundary leaves that part to the browser; the server logs it.
    const started = server.startRender(element, (error) => void (errors.length < 20 && errors.push(message(error))));
    pending = { kind: 'render', started, head, asked, errors };
  },

  /**
   * The started call's result: a plan as JSON; a render as [its head as JSON, its HTML] (the HTML
   * crosses as it is). A render finishes now, leaving to the browser what is still waited for.
   */
  collect(): string | [string, string] {
    const state = pending;
    pending = null;
    if (!state) throw new Error('nothing was started');
    if (state.kind === 'plan') {
      if (!state.result) throw new Error("the page's route data did not settle in the sandbox");
      if (!state.result.ok) throw state.result.error;
      return JSON.stringify(state.result.value);
    }
    const waited = !state.started.ready();
    const html = state.started.finish(new Error('the page waited for something that does not settle in the sandbox'));
    return [JSON.stringify({ ...state.head, pending: [...state.asked], errors: state.errors, waited, logs: takeLogs() }), html];
  },

  logs: takeLogs,
};

function requireShell(): ShellServer {
  if (!shell) throw new Error('no shell in this context');
  return shell;
}

function unusable(): Promise<unknown> {
  return Promise.reject(new Error('loaded by the server'));
}

Object.defineProperty(globalThis, '__sandbox', { value: Object.freeze(sandbox) });
