// The server-render sandbox's two files (server/src/web/ssr/sandbox/): the renderer process's entry
// (renderer.cjs, for Node) and the runtime its isolate runs (runtime.js: React with the legacy
// renderToString, the server's copy of the kernel singleton, zustand, mitt, whatwg-url, and the
// calls the renderer makes). build.mjs writes them into dist/sandbox/ with the server; run from the
// sources (tests, tsx), the server builds them once into node_modules/.cache (sandbox-files.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const sandboxDir = join(here, 'src', 'web', 'ssr', 'sandbox');
const require = createRequire(join(here, 'package.json'));

/** The internals of React's legacy server build that `startRender` below uses (checked: a React upgrade must keep them). */
const INTERNALS = [
  'createResumableState',
  'createRenderState',
  'createFormatContext',
  'createRequest',
  'performWork',
  'safelyEmitEarlyPreloads',
  'abort',
  'startFlowing',
  'formatProdErrorMessage',
];

/**
 * React's renderToString renders what is there at once and leaves anything that suspends to the
 * browser. The page's own parts suspend on promises that settle within the isolate (an area's
 * modules, `React.lazy`), as renderToPipeableStream waited for them in the server's own process.
 * `startRender` is renderToString split in two: the work starts, the isolate runs its microtasks
 * (pinging the suspended work, which the legacy build performs at once), then `finish` writes the
 * HTML, leaving to the browser only what never settled, as an aborted stream would.
 */
const START_RENDER = `
exports.startRender = function (children, onError) {
  var allReady = false, shellReady = false;
  var resumableState = createResumableState(void 0);
  var request = createRequest(children, resumableState, createRenderState(resumableState, false), createFormatContext(0, null, 0, null),
    Infinity, function (error) { onError(error); }, void 0, function () { allReady = true; }, function () { shellReady = true; }, void 0, void 0, void 0);
  request.flushScheduled = null !== request.destination;
  performWork(request);
  10 === request.status && (request.status = 11);
  return {
    ready: function () { return allReady; },
    finish: function (abortReason) {
      null === request.trackedPostpones && safelyEmitEarlyPreloads(request, 0 === request.pendingRootTasks);
      abort(request, abortReason);
      var html = "", failed = false, failure = null;
      startFlowing(request, {
        push: function (chunk) { null !== chunk && (html += chunk); return true; },
        destroy: function (error) { failed = true; failure = error; }
      });
      if (failed && failure !== abortReason) throw failure;
      if (!shellReady) throw Error(formatProdErrorMessage(426));
      return html;
    }
  };
};
`;

const legacyServer = {
  name: 'react-dom-legacy-server',
  setup(builder) {
    // Not in react-dom's exports: found beside its package.json.
    const file = join(dirname(require.resolve('react-dom/package.json')), 'cjs', 'react-dom-server-legacy.browser.production.js');
    builder.onResolve({ filter: /^react-dom\/server$/ }, () => ({ path: file, namespace: 'legacy-server' }));
    builder.onLoad({ filter: /.*/, namespace: 'legacy-server' }, () => {
      const source = readFileSync(file, 'utf8');
      const absent = INTERNALS.filter((name) => !new RegExp(`function ${name}\\(`).test(source));
      if (absent.length > 0) throw new Error(`React's legacy server build no longer has ${absent.join(', ')}: see build-sandbox.mjs`);
      return { contents: source + START_RENDER, loader: 'js', resolveDir: dirname(file) };
    });
  },
};

/** Builds both files; `write: false` gives them as { renderer, runtime } texts. */
export async function buildSandbox({ outdir, write = true }) {
  const common = { bundle: true, legalComments: 'none', logLevel: 'warning', write, outdir, sourcemap: false };
  const [runtime, renderer] = await Promise.all([
    build({
      ...common,
      entryPoints: { runtime: join(sandboxDir, 'runtime', 'runtime.ts') },
      format: 'iife',
      platform: 'neutral',
      target: 'es2022',
      mainFields: ['main', 'module'],
      conditions: [],
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [legacyServer],
    }),
    build({
      ...common,
      entryPoints: { renderer: join(sandboxDir, 'renderer-process.ts') },
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external: ['isolated-vm'],
    }),
  ]);
  if (write) return null;
  return { runtime: runtime.outputFiles[0].text, renderer: renderer.outputFiles[0].text };
}

/** A short digest of the built texts: the cache folder of a build from the sources. */
export const digestOf = (texts) =>
  createHash('sha256').update(texts.runtime).update('\0').update(texts.renderer).digest('hex').slice(0, 16);
