import type { ReleaseMove } from '@shop/shared-kernel/contract';
import { PART_LABELS, time } from '../format.ts';

const ACTIONS: Record<ReleaseMove['action'], string> = {
  deploy: 'nasadenie',
  rollback: 'návrat',
  publish: 'zverejnenie na náhľad',
  canary: 'kanárske vydanie',
  advance: 'ďalšia fáza kanárika',
  promote: 'povýšenie kanárika',
  abort: 'zrušenie kanárika',
  pin: 'pripnutie',
  unpin: 'odopnutie',
};

/** Every move of the registry, newest first: when, who, what, from which version to which, why. */
export function History({ moves }: { moves: ReleaseMove[] }) {
  return (
    <>
      <h2>História</h2>
      <ol className="ops__history" reversed>
        {[...moves].reverse().map((move, index) => (
          <li key={`${move.at}-${index}`}>
            {time(move.at)} · {move.who} · {ACTIONS[move.action]} · {PART_LABELS[move.part] ?? move.part}: <code>{move.from ?? '—'}</code> →{' '}
            <code>{move.to}</code>
            {move.share ? ` (${move.share} %)` : ''}
            {move.commit ? (
              <>
                {' '}
                · commit{' '}
                <code>
                  {move.commit}
                  {move.dirty ? ' + neuložené zmeny' : ''}
                </code>
              </>
            ) : null}
            {move.reason ? ` · ${move.reason}` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}
