import { call } from '../api.ts';
import { PART_LABELS, time } from '../format.ts';
import { useLoad } from '../use-load.ts';

const REASONS: Record<string, string> = {
  error: 'kód časti zlyhal',
  timeout: 'vykresľovanie trvalo príliš dlho',
  memory: 'minula sa pamäť',
  hang: 'vykresľovač neodpovedal',
  crash: 'vykresľovač skončil',
};

/**
 * The server renders that failed in the sandbox, from every server: which part and version, why, on
 * which page and request (its log lines carry the same id). The shopper got the page rendered in the
 * browser instead.
 */
export function RenderFailures() {
  const report = useLoad(async () => (await call('GET /api/ops/render-failures')).data, []).data;
  if (!report) return null;
  return (
    <>
      <h2>Zlyhania vykresľovania na serveri</h2>
      {report.failures.length === 0 ? (
        <p data-testid="ops-render-failures-none">Žiadne vykresľovanie na serveri nezlyhalo.</p>
      ) : (
        <>
          <p>Zákazník dostal stránku vykreslenú v prehliadači; časť a verziu treba preveriť.</p>
          <ul className="ops__findings" data-testid="ops-render-failures">
            {report.failures.map((failure) => (
              <li key={`${failure.at}-${failure.requestId}-${failure.part}`}>
                <strong>
                  {PART_LABELS[failure.part] ?? failure.part} <code>{failure.version}</code>
                </strong>{' '}
                · {REASONS[failure.reason] ?? failure.reason} · <code>{failure.path}</code> · {time(failure.at)}
                <small>
                  <br />
                  požiadavka <code>{failure.requestId}</code> na <code>{failure.server}</code>
                  {failure.message ? `: ${failure.message}` : ''}
                </small>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
