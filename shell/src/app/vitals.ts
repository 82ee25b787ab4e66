/**
 * Field Web Vitals (Google's web-vitals library, its attribution build): LCP, INP, CLS, FCP and
 * TTFB of this page load, sent in the telemetry's batches (telemetry.ts: sampled and capped with
 * the page's other events) as events of type `vital`.
 *
 * - Each metric is reported once per page load, with its final value (the library reports INP, CLS
 *   and LCP when the page is hidden or left: the batch goes at once then).
 * - Attributed to the area, version and route shown when it happened (LCP at its paint, INP at its
 *   interaction, CLS at its largest shift; FCP and TTFB to the page load's first view), and whether
 *   that view came server-rendered.
 * - Bounded: times in whole ms up to a minute, CLS up to 10; the element's selector scrubbed and
 *   short (no query, no quoted value, no long number).
 * - The library is loaded after the page's load, at the first tap or key or a few seconds later,
 *   so the first load carries none of it; what it observed before (paints, shifts, the first input)
 *   it reads from the browser's buffer.
 */
import { boundVitalValue, scrubVitalTarget, type VitalName } from '@shop/shared-kernel/rules';
import { base, enqueueEvent, flushTelemetry, shownAt } from './telemetry.ts';

/** What vitals.ts reads of a web-vitals report (attribution build). */
export type VitalReport = {
  name: string;
  value: number;
  attribution?: {
    target?: string;
    interactionTarget?: string;
    interactionTime?: number;
    largestShiftTarget?: string;
    largestShiftTime?: number;
  };
};

type Library = {
  onLCP: (callback: (report: VitalReport) => void) => void;
  onINP: (callback: (report: VitalReport) => void) => void;
  onCLS: (callback: (report: VitalReport) => void) => void;
  onFCP: (callback: (report: VitalReport) => void) => void;
  onTTFB: (callback: (report: VitalReport) => void) => void;
};

export type VitalsOptions = {
  /** The page load's first view came from the server's HTML (hydrated). */
  serverRendered: boolean;
  /** Loads the library; default the attribution build, as a chunk of its own. */
  load?: () => Promise<Library>;
  /** The library is loaded this long after the page's load without a tap or key (ms); default 3000. */
  delayMs?: number;
};

const NAMES: Record<string, VitalName> = { LCP: 'lcp', INP: 'inp', CLS: 'cls', FCP: 'fcp', TTFB: 'ttfb' };

let reported = new Set<VitalName>();
let serverRendered = false;

/** The moment a report is about (performance.now()'s clock), to find the view it belongs to; 0: the first view. */
function momentOf(metric: VitalName, report: VitalReport): number {
  if (metric === 'lcp') return report.value;
  if (metric === 'inp') return report.attribution?.interactionTime ?? Number.POSITIVE_INFINITY;
  if (metric === 'cls') return report.attribution?.largestShiftTime ?? Number.POSITIVE_INFINITY;
  return 0;
}

function targetOf(report: VitalReport): string {
  const a = report.attribution;
  return scrubVitalTarget(a?.target ?? a?.interactionTarget ?? a?.largestShiftTarget ?? '');
}

/** One report of the library: bounded, attributed, queued once per metric and page load. */
export function reportVital(report: VitalReport): void {
  const metric = NAMES[report.name];
  if (!metric || reported.has(metric)) return;
  const value = boundVitalValue(metric, report.value);
  const shown = shownAt(momentOf(metric, report));
  if (value === null || !shown) return;
  const common = base(shown.area, shown.version, shown.route);
  if (!common) return;
  reported.add(metric);
  const target = targetOf(report);
  enqueueEvent({
    type: 'vital',
    ...common,
    metric,
    value,
    ssr: serverRendered && shown.first,
    ...(target ? { target } : {}),
  });
  // Reported because the page is hidden or left: no timer would send it.
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') flushTelemetry();
}

/**
 * Starts measuring this page load's vitals once the page has loaded (the library then loads at the
 * first tap or key, or after `delayMs`). Returns the stop (tests), which forgets what was reported.
 */
export function installVitals(options: VitalsOptions): () => void {
  reported = new Set();
  serverRendered = options.serverRendered;
  const load = options.load ?? (() => import('./vitals-library.ts') as Promise<Library>);
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const start = () => {
    if (started) return;
    started = true;
    stopWaiting();
    void load().then(
      (library) => {
        library.onTTFB(reportVital);
        library.onFCP(reportVital);
        library.onLCP(reportVital);
        library.onCLS(reportVital);
        library.onINP(reportVital);
      },
      // The chunk did not load (offline, a deploy): no vitals for this page load.
      () => undefined,
    );
  };
  const stopWaiting = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    window.removeEventListener('pointerdown', start, true);
    window.removeEventListener('keydown', start, true);
    window.removeEventListener('load', afterLoad);
  };
  const afterLoad = () => {
    window.addEventListener('pointerdown', start, true);
    window.addEventListener('keydown', start, true);
    timer = setTimeout(start, options.delayMs ?? 3000);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    stopWaiting();
    started = true;
    reported = new Set();
  };
}
