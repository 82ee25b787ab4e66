/**
 * For each target a run missed: what limits it, measured in the same run where the bench can
 * measure it, and what was tried (kept or left), so that tools/bench/results.md answers why and the
 * next attempt starts from there. Only the groups of targets missed in the run are written.
 */
import type { CatalogRun } from './catalog-one-at-a-time.ts';
import type { PageWeight } from './page-weights.ts';

/** A budget's group: the targets one explanation covers. */
export type TargetGroup =
  | 'lighthouse'
  | 'javascript'
  | 'script-requests'
  | 'round-trips'
  | 'picture'
  | `api-${'sqlite' | 'postgres'}`
  | 'api-load'
  | 'edge'
  | 'pages';

export type Budget = { what: string; value: string; limit: string; met: boolean; group: TargetGroup };

type Facts = { weights: { composed: PageWeight[]; monolith: PageWeight[] }; catalog: CatalogRun[] };

const range = (values: number[], digits = 1) => {
  const low = Math.min(...values).toFixed(digits);
  const high = Math.max(...values).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
};

function javascript({ weights }: Facts): string[] {
  const pages = weights.composed.map((page) => ({ page, mono: weights.monolith.find((row) => row.name === page.name)! }));
  const own = pages.map(({ page }) => page.firstJsKb - page.firstFederationKb);
  return [
    `- **What limits it: the federation's own code.** Of the composed first load, ${range(pages.map(({ page }) => page.firstFederationKb))} KB a page is the ` +
      "module federation's runtime and the code @module-federation/vite generates (tools/bench/src/federation-code.ts: the runtime core, about 16.6 KB, which " +
      "the plugin that hands it to the areas publishes whole; the shell's and the area's remote entries, about 7 KB each, most of it the share-cache " +
      "and provider-selection code the plugin writes into every entry whatever the options; the area's share bridge, about 3 KB; the shared-import maps, " +
      "the host's init, its pending shares and its bootstrap, about 1.2 KB each). " +
      `Without it a page loads ${range(own)} KB, ${range(
        pages.map(({ mono }, index) => own[index]! / mono.firstJsKb),
        2,
      )} times the monolith's ` +
      `(${range(pages.map(({ mono }) => mono.firstJsKb))} KB). The rest of the difference is the headers of the extra requests, React's share wrapper and each part's own copy of the kernel's rules.`,
    "- **Kept:** one federation runtime on the page (the areas use the shell's: `experiments.externalRuntime` / `provideExternalRuntime`); the runtime's " +
      'snapshot plugins and its stand-ins for builds without remotes or sharing left out (`disableSnapshot`, `disableRemote: false`, `disableShared: false`); ' +
      "only React and the kernel shared (zustand and mitt inside the kernel, react-dom the shell's alone, the JSX runtime bundled per part: each share " +
      "cost every part a wrapper chunk); the runtime's package.json not bundled for its version; the kernel's rules and React helpers bundled and " +
      'tree-shaken per part; scripts pre-compressed with brotli.',
    '- **Left:** trimming the generated entries and the runtime core needs changes to @module-federation/vite or its runtime (patches), and a runtime ' +
      "of our own through the plugin's `implementation` option would replace the maintained runtime with the shop's own federation code; neither tried.",
  ];
}

function scriptRequests({ weights }: Facts): string[] {
  return [
    `- **What limits it: the federation's files.** ${range(
      weights.composed.map((page) => page.firstFederationScripts),
      0,
    )} of a page's ` +
      `${range(
        weights.composed.map((page) => page.firstScripts),
        0,
      )} scripts are the federation's runtime and generated code; @module-federation/vite 1.23 keeps its own chunks (share wrappers, the ` +
      "module-preload helper) above a user's `codeSplitting.groups`, and the bundler's runtime helpers in a chunk of their own.",
    "- **Kept:** an area's code that several pages use in one chunk (`<area>-common`, the catalog's listing apart), its standalone harness not " +
      'built, and no wrapper chunks for packages no other part imports. The requests run in parallel: every chunk of the first render is preloaded ' +
      "(a test holds it), so the serial round trips stay within the monolith's plus one.",
  ];
}

function api(dialect: 'sqlite' | 'postgres', { catalog }: Facts): string[] {
  const run = catalog.find((row) => row.dialect === dialect);
  const floor = run?.floor
    ? `A call costs ${run.floor.noQueryMs.toFixed(2)} ms before it reads anything (\`/api/health\`, one at a time over HTTP) and ` +
      `${run.floor.oneQueryMs.toFixed(2)} ms with one trivial query (\`/api/ready\`); above the first, the slowest call of each kind took ` +
      `${run.kinds.map((kind) => `${kind.kind} ${(kind.worst - run.floor!.noQueryMs).toFixed(2)} ms (target ${(kind.limitMs - run.floor!.noQueryMs).toFixed(2)})`).join(', ')}.`
    : 'The floor of a call was not measured (the catalog benchmark failed).';
  if (dialect === 'sqlite') {
    return [
      `- **What limits it: the floor of a call and the machine.** ${floor} A product detail runs five indexed reads (four keyed by its URL) and ` +
        'compresses its answer; a listing page reads 15 tiles. One-at-a-time medians of calls whose code did not change moved by 30–40 % between runs on this machine.',
      "- **Kept:** facets from counts kept per category and brand (the sale's too; every category together for a listing without one), and from an " +
        'in-memory index per category revision when filtered; brands and attributes looked up in memory; listings read one page ' +
        "of `category_listing` through an index whatever the sort and page; a tile is one product and one variant row; product detail's queries compiled " +
        'once; rows read as arrays; the database file read through a memory map; answers compressed with brotli 3.',
    ];
  }
  return [
    `- **What limits it: the cost of each statement.** ${floor} Inside PostgreSQL a product detail's statements take 0.05–0.13 ms each ` +
      "(EXPLAIN ANALYZE, warm); the driver, the protocol and the processes' turns on this machine's two cores cost about 0.3 ms a statement. " +
      'A product detail runs four statements at once (keyed by the URL), then one for the price history of discounted variants: ' +
      "in-process, without HTTP, 1.75–1.9 ms (measured at stop 38). A listing page runs three or four, two deep; a category's facets one. A search of a common word " +
      "reads its hits' rows to order them by popularity before it ranks the first 150 (sadrokartónová doska: 5.5 ms in PostgreSQL alone).",
    '- **Kept:** statements run by name (parsed once per connection); a search planned for its words every time, its count bounded to 1,000 hits and ' +
      "taken through the GIN index, which holds every prefix of the words (one lookup a word, not a scan of every word a prefix starts); a listing's total and page read at once, the tiles with their price history; kept facet counts, as on SQLite, read with " +
      "their staleness in one statement, the whole sale's total among them; " +
      'production memory settings for the kept server (`shared_buffers` a quarter of RAM).',
    '- **Left:** a product page in one statement (JSON built by the database: a second way to read it on each engine); fewer hits ranked ' +
      '(RANKED_HITS, 150: a worse first page for a common word).',
  ];
}

function pages(): string[] {
  return [
    '- **What limits it: the CPU a page costs, about 7 ms of one core on this machine (2026-11-27, `tools/bench/src/page-load-alone.ts`).** ' +
      'A CPU profile of the measured row gave, per page: the React render about 2.5 ms, brotli (quality 5, one call) of about 70 KB of HTML ' +
      "1.1–2.2 ms, the SQLite queries of its data about 1.4 ms, the page request in Fastify about 0.9 ms, the server's own code about 0.8 ms, " +
      'garbage collection 0.6 ms, the in-process data calls (inject) 0.6 ms, the socket 0.5 ms, reading the registry 0.2 ms. 400 pages/s on ' +
      'one core leaves 2.5 ms a page, less than the render alone; at 50 connections a p99 of 100 ms needs about 500 pages/s, since each connection ' +
      'waits for the pages ahead of it. Through nginx the edge answers most page views (the edge row), so this is the cost of a miss.',
    '- **Kept:** each route declares its data (`src/route-data.ts` of its area) and the page renders once; the menu and footer rendered once per their ' +
      'data and spliced in as HTML; the route tree built once per route table; page data loaded by key through the API in-process, not logged or ' +
      "counted as requests of their own, and embedded as the answers' own text; the page compressed in one sized call (through a compression " +
      'stream it cost several times more), each encoding kept with a cached page.',
    "- **Left:** the page data from the domain services directly instead of through inject (Fastify's validation and caches written again); " +
      "the constant head (import map, styles) kept out of each page's compression (a stylesheet and integrity data the browser caches); the " +
      'policy, import map and configuration built once per registry revision (under 0.15 ms a page).',
  ];
}

const TEXTS: Record<TargetGroup, { title: string; text: (facts: Facts) => string[] }> = {
  lighthouse: {
    title: 'Lighthouse',
    text: () => [
      "- Met in the full runs of stops 36 and 37 (2026-11-26). Compare the machine's benchmark index and the main thread's share of a core in the table below " +
        'with theirs: Lighthouse times tasks by the wall clock, so a busy machine raises TBT and LCP.',
    ],
  },
  javascript: { title: 'First-load JavaScript and its ratio to the monolith', text: javascript },
  'script-requests': { title: 'Script requests', text: scriptRequests },
  'round-trips': {
    title: 'Serial round trips',
    text: () => [
      "- Every chunk of a route's first render is preloaded from the HTML; a miss means a chunk was discovered late: the table below names the page.",
    ],
  },
  picture: {
    title: 'The product picture',
    text: () => [
      '- The picture is announced in the HTML with `fetchpriority="high"` (a test holds it); a miss means something now comes before it.',
    ],
  },
  'api-sqlite': { title: 'The catalog API on SQLite, one at a time', text: (facts) => api('sqlite', facts) },
  'api-postgres': { title: 'The catalog API on PostgreSQL, one at a time', text: (facts) => api('postgres', facts) },
  pages: { title: 'Server-rendered pages under load', text: pages },
  'api-load': {
    title: 'The API under load',
    text: () => [
      '- Met in the full runs of stops 36 and 37 (2026-11-26); see the saturated and open-loop rows below for the call that fell.',
    ],
  },
  edge: {
    title: 'Pages answered by the edge',
    text: () => [
      "- **What limits it: the tail's first views and how often each URL is asked for within a validator's lifetime.** nginx answers a page " +
        'from its cache for s-maxage and, while one request fetches it anew, for stale-while-revalidate more (10 s together, docs/operations.md); ' +
        "after that it asks the server with the page's ETag, and the server confirms it with a 304 without rendering while nothing the page shows " +
        "has changed (REVALIDATED, counted as answered by the edge: its body comes from nginx) for at most a validator's lifetime " +
        '(server/src/web/page-validator.ts). A URL never asked before, or not within that lifetime, is rendered (MISS, EXPIRED); under a Zipf ' +
        "popularity the long tail's share of the views is large, so the share rises with the views per second and the length of the warm-up.",
    ],
  },
};

/** The section of tools/bench/results.md on the targets missed in this run (empty when every one was met). */
export function missedTargetsSection(budgets: Budget[], facts: Facts): string[] {
  const missed = [...new Set(budgets.filter((budget) => !budget.met).map((budget) => budget.group))];
  if (missed.length === 0) return [];
  return [
    '## Missed targets: what limits them, what was tried',
    '',
    ...missed.flatMap((group) => [`### ${TEXTS[group].title}`, '', ...TEXTS[group].text(facts), '']),
  ];
}
