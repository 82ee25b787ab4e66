import { call } from '../api.ts';
import { every, seconds, size, time } from '../format.ts';
import { useLoad } from '../use-load.ts';

/** Where a backup is kept, in Slovak: a directory's path, or the bucket's address as it is. */
const whereKept = (destination: string) => destination.replace(/^directory /, 'priečinok ');

/** The last backup, and the last attempt when it failed (the worker tries again at the next interval). */
export function Backups() {
  const overview = useLoad(async () => (await call('GET /api/ops/backups')).data, []).data;
  if (!overview) return null;
  const { lastSuccess, lastFailure } = overview;
  const failedLast = lastFailure !== null && (lastSuccess === null || lastFailure.startedAt > lastSuccess.startedAt);
  return (
    <>
      <h2>Zálohy</h2>
      <p data-testid="ops-backup">
        Posledná záloha:{' '}
        {lastSuccess ? (
          <>
            {time(lastSuccess.finishedAt)} · {size(lastSuccess.bytes)} · trvala {seconds(lastSuccess.durationMs)} s ·{' '}
            <code>{lastSuccess.name}</code> ({whereKept(lastSuccess.destination)})
          </>
        ) : (
          'zatiaľ žiadna'
        )}
      </p>
      {failedLast && (
        <p role="alert" className="ops__message--error" data-testid="ops-backup-failure">
          Posledný pokus o zálohu zlyhal {time(lastFailure.finishedAt)}: {lastFailure.error ?? 'neznáma príčina'}.{' '}
          {overview.intervalMs > 0
            ? `Ďalší pokus ${time(new Date(Date.parse(lastFailure.startedAt) + overview.intervalMs).toISOString())}.`
            : 'Zálohu vytvorte príkazom npm run backup.'}
        </p>
      )}
      <p>
        {overview.intervalMs > 0
          ? `Zálohuje sa každých ${every(overview.intervalMs)}.`
          : 'Automatické zálohy sú vypnuté (BACKUP_INTERVAL_MS=0).'}
        {overview.failures > 0 ? ` Neúspešných pokusov doteraz: ${overview.failures}.` : ''}
      </p>
    </>
  );
}
