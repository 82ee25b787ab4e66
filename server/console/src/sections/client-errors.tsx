import { useState } from 'react';
import type { ClientErrorGroup, ClientErrorKind } from '@shop/shared-kernel/contract';
import { call } from '../api.ts';
import { PART_LABELS, time } from '../format.ts';
import { useLoad } from '../use-load.ts';

const KINDS: Record<ClientErrorKind, string> = {
  'load-failed': 'kód časti sa nenačítal',
  boundary: 'stránka časti zlyhala',
  uncaught: 'nezachytená chyba',
  rejection: 'nevybavený prísľub',
  hydration: 'nesúlad s HTML zo servera',
  recovered: 'načítané na ďalší pokus',
};

const PERIODS = [
  { hours: 1, label: 'posledná hodina' },
  { hours: 24, label: 'posledných 24 hodín' },
  { hours: 168, label: 'posledný týždeň' },
] as const;

const frameText = (frame: ClientErrorGroup['stack'][number]) =>
  `${frame.fn ?? '(anonymná funkcia)'} (${frame.file}:${frame.line}:${frame.column})${frame.mapped ? '' : ' · nemapované'}`;

/**
 * The shoppers' client errors grouped by part, version, page and the place in the part's original
 * code (mapped with the version's signed source maps), most reports first: what a team fixes, and
 * whether a release brought it (its version).
 */
export function ClientErrors() {
  const [hours, setHours] = useState<number>(24);
  const report = useLoad(async () => (await call('GET /api/ops/client-errors', { query: { hours } })).data, [hours]).data;
  return (
    <>
      <h2>Chyby u zákazníkov</h2>
      <label>
        Obdobie{' '}
        <select value={hours} onChange={(event) => setHours(Number(event.target.value))}>
          {PERIODS.map((period) => (
            <option key={period.hours} value={period.hours}>
              {period.label}
            </option>
          ))}
        </select>
      </label>
      {!report ? null : report.groups.length === 0 ? (
        <p data-testid="ops-client-errors-none">Od {time(report.since)} žiadny prehliadač nenahlásil chybu.</p>
      ) : (
        <ul className="ops__findings" data-testid="ops-client-errors">
          {report.groups.map((group) => (
            <li key={`${group.area}-${group.version}-${group.route}-${group.topFrame}`}>
              <strong>
                {PART_LABELS[group.area] ?? group.area} <code>{group.version}</code>
              </strong>{' '}
              · {group.count}× · {KINDS[group.kind as ClientErrorKind] ?? group.kind}
              {group.route ? (
                <>
                  {' '}
                  · stránka <code>{group.route}</code>
                </>
              ) : null}{' '}
              · naposledy {time(group.lastAt)}
              <br />
              <code>{group.topFrame}</code>: {group.message}
              {group.stack.length > 1 && (
                <details>
                  <summary>Celý zásobník ({group.stack.length} rámcov)</summary>
                  <ol>
                    {group.stack.map((frame, index) => (
                      <li key={index}>
                        <code>{frameText(frame)}</code>
                      </li>
                    ))}
                  </ol>
                </details>
              )}
              <small>
                <br />
                prvé hlásenie {time(group.firstAt)}
              </small>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
