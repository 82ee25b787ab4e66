import { useState } from 'react';
import type { VitalP75, VitalsRow } from '@shop/shared-kernel/contract';
import { call } from '../api.ts';
import { PART_LABELS as PARTS } from '../format.ts';
import { useLoad } from '../use-load.ts';

/** The ranges the operator chooses from, in hours. */
const RANGES = [
  { hours: 1, label: '1 h' },
  { hours: 24, label: '24 h' },
  { hours: 168, label: '7 dní' },
] as const;

type Rating = 'good' | 'needs-improvement' | 'poor';
const RATING_LABELS: Record<Rating, string> = { good: 'dobré', 'needs-improvement': 'treba zlepšiť', poor: 'slabé' };

/** The Core Web Vitals thresholds (good up to the first, poor above the second); FCP and TTFB by web.dev's. */
const THRESHOLDS: Record<VitalP75['metric'], [number, number]> = {
  lcp: [2500, 4000],
  inp: [200, 500],
  cls: [0.1, 0.25],
  fcp: [1800, 3000],
  ttfb: [800, 1800],
};
const LABELS: Record<VitalP75['metric'], string> = { lcp: 'LCP', inp: 'INP', cls: 'CLS', fcp: 'FCP', ttfb: 'TTFB' };
const SHOWN: VitalP75['metric'][] = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'];

export function rating(metric: VitalP75['metric'], p75: number): Rating {
  const [good, poor] = THRESHOLDS[metric];
  return p75 <= good ? 'good' : p75 <= poor ? 'needs-improvement' : 'poor';
}

const number = (value: number, digits: number) => value.toLocaleString('sk-SK', { maximumFractionDigits: digits });
/** LCP, FCP, TTFB in seconds; INP in ms; CLS as the score. */
function shown(metric: VitalP75['metric'], p75: number): string {
  if (metric === 'cls') return number(p75, 3);
  if (metric === 'inp') return `${number(p75, 0)} ms`;
  return `${number(p75 / 1000, 2)} s`;
}

function Metric({ item }: { item: VitalP75 }) {
  if (item.p75 === null || item.samples === 0)
    return (
      <li>
        {LABELS[item.metric]}: <span className="ops__vital-none">bez meraní</span>
      </li>
    );
  const rated = rating(item.metric, item.p75);
  return (
    <li data-metric={item.metric} data-rating={rated}>
      {LABELS[item.metric]}: <strong>{shown(item.metric, item.p75)}</strong> ·{' '}
      <span className={`ops__vital--${rated}`}>{RATING_LABELS[rated]}</span> <small>({item.samples} meraní)</small>
    </li>
  );
}

const STATES: Record<VitalsRow['state'], string> = { stable: 'stabilná', canary: 'kanárik', other: 'skoršia' };

/**
 * What the shoppers' browsers measured (p75 of LCP, INP, CLS, FCP and TTFB) per area version over
 * the chosen hours, the canary right after its stable version; lists, so it wraps on a phone.
 */
export function WebVitals() {
  const [hours, setHours] = useState<number>(24);
  const report = useLoad(async () => (await call('GET /api/ops/vitals', { query: { hours } })).data, [hours]).data;
  return (
    <>
      <h2>Rýchlosť u zákazníkov (Web Vitals)</h2>
      <fieldset className="ops__vitals-range">
        <legend>Obdobie</legend>
        {RANGES.map((range) => (
          <label key={range.hours}>
            <input type="radio" name="ops-vitals-range" checked={hours === range.hours} onChange={() => setHours(range.hours)} />{' '}
            {range.label}
          </label>
        ))}
      </fieldset>
      <p>
        75. percentil z prehliadačov zákazníkov (vzorka zobrazení). Hranice Core Web Vitals: LCP 2,5 s / 4 s, INP 200 ms / 500 ms, CLS 0,1 /
        0,25.
      </p>
      {!report ? null : report.rows.length === 0 ? (
        <p data-testid="ops-vitals-none">Za zvolené obdobie prehliadače nenahlásili žiadne merania.</p>
      ) : (
        <ul className="ops__vitals" data-testid="ops-vitals">
          {report.rows.map((row) => (
            <li key={`${row.area}-${row.version}`} data-area={row.area} data-version={row.version} data-state={row.state}>
              <strong>{PARTS[row.area] ?? row.area}</strong> <code>{row.version}</code> ({STATES[row.state]})
              <ul>
                {SHOWN.map((metric) => {
                  const item = row.metrics.find((m) => m.metric === metric);
                  return item ? <Metric key={metric} item={item} /> : null;
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
