import { useEffect, useState } from 'react';
import type { ReleasePartStatus, ReleaseStatus } from '@shop/shared-kernel/contract';
import { PART_LABELS, time } from '../format.ts';
import { CanaryStage } from './canary-stage.tsx';
import type { Act } from './release-actions.ts';

const percent = (errors: number, views: number) =>
  views === 0 ? '—' : `${((errors / views) * 100).toLocaleString('sk-SK', { maximumFractionDigits: 1 })} %`;

/** Page views and error rate of one version over the last hour. */
function Health({ data, part, version }: { data: ReleaseStatus; part: string; version: string | null }) {
  const row = data.health.find((item) => item.area === part && item.version === version);
  if (!version || part === 'shell') return null;
  return (
    <span className="ops__health" data-testid={`health-${part}-${version}`}>
      {row ? `${row.views} zobrazení, chybovosť ${percent(row.errors, row.views)}` : 'bez zobrazení'} za hodinu
    </span>
  );
}

/** One part: its version, pin, canary, last-hour health, the versions never to be served again, and the moves an operator can make. */
export function PartRow({ data, part, busy, act }: { data: ReleaseStatus; part: ReleasePartStatus; busy: boolean; act: Act }) {
  const label = PART_LABELS[part.part] ?? part.part;
  const defaultTarget = 'version' in part.rollback ? part.rollback.version : '';
  const [target, setTarget] = useState(defaultTarget);
  const [reason, setReason] = useState('');
  useEffect(() => setTarget(defaultTarget), [defaultTarget]);
  const choices = part.versionsKept.filter((version) => version !== part.version);

  const rollBack = () => {
    if (!target) return;
    const known = 'version' in part.rollback && part.rollback.version === target ? part.rollback : null;
    const when = known ? ` (naposledy v prevádzke do ${time(known.lastInForceUntil)}${known.by ? `, nasadil ${known.by}` : ''})` : '';
    if (
      !window.confirm(`Vrátiť ${label} z verzie ${part.version ?? '—'} na verziu ${target}${when}? Časť zostane pripnutá na tejto verzii.`)
    )
      return;
    void act(part.part, 'rollback', { version: target, ...(reason ? { reason } : {}) }, (result) => {
      const move = result.data;
      return `${label}: ${move.from ?? '—'} → ${move.version} (pripnuté)`;
    });
  };

  const floor = () => {
    if (!target) return;
    if (!window.confirm(`Označiť ${label} ${target} ako verziu, ktorá sa už nikdy nesmie použiť (ani návratom, náhľadom či kanárikom)?`))
      return;
    void act(part.part, 'floor', { version: target, floored: true, ...(reason ? { reason } : {}) }, (result) => {
      return `${label} ${result.data.version}: označená ako nepoužiteľná`;
    });
  };
  const floors = part.floors ?? [];

  return (
    <tr data-part={part.part}>
      <th scope="row">{label}</th>
      <td>
        <code>{part.version ?? '—'}</code> <Health data={data} part={part.part} version={part.version} />
        <br />
        <small>
          {time(part.since)}
          {part.by ? ` · ${part.by}` : ''}
        </small>
        {part.pin && (
          <p className="ops__pin" data-testid={`pin-${part.part}`}>
            Pripnuté na <code>{part.pin.version}</code> ({part.pin.by}, {time(part.pin.at)}
            {part.pin.reason ? `: ${part.pin.reason}` : ''}){' '}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void act(part.part, 'unpin', {}, () => `${label}: odopnuté`)}
            >
              Odopnúť<span className="visually-hidden"> {label}</span>
            </button>
          </p>
        )}
        {part.canary && (
          <p className="ops__canary" data-testid={`canary-${part.part}`}>
            Kanárik <code>{part.canary.version}</code> pre {part.canary.share} % zákazníkov od {time(part.canary.since)}{' '}
            <Health data={data} part={part.part} version={part.canary.version} /> <CanaryStage canary={part.canary} />{' '}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() =>
                void act(part.part, 'promote', { version: part.canary!.version }, () => `${label}: kanárik povýšený pre všetkých`)
              }
            >
              Povýšiť
            </button>{' '}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void act(part.part, 'abort', { version: part.canary!.version }, () => `${label}: kanárik zrušený`)}
            >
              Zrušiť
            </button>
          </p>
        )}
        {floors.length > 0 && (
          <div className="ops__floors" data-testid={`floors-${part.part}`}>
            Nepoužiteľné verzie:
            <ul>
              {floors.map((item) => (
                <li key={item.version}>
                  <code>{item.version}</code> ({item.by}, {time(item.at)}
                  {item.reason ? `: ${item.reason}` : ''}){' '}
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => {
                      if (!window.confirm(`Zrušiť označenie ${label} ${item.version}? Verziu bude opäť možné nasadiť.`)) return;
                      void act(
                        part.part,
                        'floor',
                        { version: item.version, floored: false },
                        () => `${label} ${item.version}: označenie zrušené`,
                      );
                    }}
                  >
                    Zrušiť označenie<span className="visually-hidden"> {item.version}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </td>
      <td>
        {choices.length > 0 ? (
          <>
            <label className="visually-hidden" htmlFor={`target-${part.part}`}>
              Cieľová verzia – {label}
            </label>
            <select id={`target-${part.part}`} value={target} onChange={(event) => setTarget(event.target.value)}>
              {!defaultTarget && <option value="">Vyberte verziu</option>}
              {choices.map((version) => (
                <option key={version} value={version}>
                  {version}
                  {version === defaultTarget ? ' (predchádzajúca)' : ''}
                </option>
              ))}
            </select>
            <label className="visually-hidden" htmlFor={`reason-${part.part}`}>
              Dôvod – {label}
            </label>
            <input
              id={`reason-${part.part}`}
              placeholder="Dôvod (nepovinné)"
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
            <button type="button" className="button" disabled={busy || !target} onClick={rollBack}>
              Vrátiť späť<span className="visually-hidden"> {label}</span>
            </button>
            {'refused' in part.rollback && <small className="ops__note">Bez zvolenej verzie sa nedá vrátiť: {part.rollback.refused}</small>}
          </>
        ) : (
          <small>Iná verzia nie je k dispozícii.</small>
        )}
        {part.part !== 'shell' && choices.length > 0 && (
          <button
            type="button"
            className="button"
            disabled={busy || !target}
            onClick={() =>
              void act(
                part.part,
                'preview',
                { version: target },
                (result) => `Odkaz na náhľad (len pre prehliadač, ktorý ho otvorí, 24 h): ${result.data.url}`,
              )
            }
          >
            Odkaz na náhľad<span className="visually-hidden"> {label}</span>
          </button>
        )}
        {choices.length > 0 && (
          <button type="button" className="button" disabled={busy || !target} onClick={floor}>
            Označiť ako nepoužiteľnú<span className="visually-hidden"> {label}</span>
          </button>
        )}
        {!part.pin && part.version && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void act(part.part, 'pin', reason ? { reason } : {}, () => `${label}: pripnuté`)}
          >
            Pripnúť<span className="visually-hidden"> {label}</span>
          </button>
        )}
      </td>
    </tr>
  );
}
