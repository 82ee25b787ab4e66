import type { ReleasePartStatus } from '@shop/shared-kernel/contract';

type Canary = NonNullable<ReleasePartStatus['canary']>;

/** A time of day as the stage line shows it: hours and minutes, UTC. */
const clock = (at: number) => `${new Date(at).toISOString().slice(11, 16)} UTC`;

/**
 * A running canary's ramp, e.g. "Fáza 2 z 3: 25 %, od 12:03 UTC, ďalšia najskôr 12:33 UTC", and what
 * the canary watch judges it on. A canary of one share shows only what is judged.
 */
export function CanaryStage({ canary }: { canary: Canary }) {
  const stages = canary.stages;
  const judged = canary.judged ?? [];
  let line: string | null = null;
  if (stages) {
    const began = Date.parse(stages.stageSince);
    const earliest = clock(began + stages.stageMs);
    const last = stages.index >= stages.shares.length - 1;
    const next = last
      ? stages.autoPromote
        ? `povýšenie pre všetkých najskôr ${earliest}`
        : `potom čaká na rozhodnutie operátora (od ${earliest})`
      : `ďalšia najskôr ${earliest}`;
    line = `Fáza ${stages.index + 1} z ${stages.shares.length}: ${stages.shares[stages.index]} %, od ${clock(began)}, ${next}`;
  }
  return (
    <>
      {line && (
        <span className="ops__stage" data-testid="canary-stage">
          {line} (postup {stages!.shares.join(' → ')} %{stages!.autoPromote ? ' → 100 %' : ''}).
        </span>
      )}{' '}
      {judged.length > 0 && <span data-testid="canary-judged">Posudzuje sa: {judged.join(', ')}.</span>}
    </>
  );
}
