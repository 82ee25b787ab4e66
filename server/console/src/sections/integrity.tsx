import { call } from '../api.ts';
import { every, PART_LABELS, time } from '../format.ts';
import { useLoad } from '../use-load.ts';

const FINDING_KINDS: Record<string, string> = {
  file: 'súbor sa líši',
  cache: 'kópia na disku servera sa líši',
  cdn: 'CDN posiela iné bajty',
  signature: 'neplatný podpis manifestu',
  headers: 'bezpečnostné hlavičky',
  registry: 'export registra na pôvode zapísal niekto iný',
};
const FINDING_ACTIONS: Record<string, string> = {
  fallback: 'vrátené na poslednú neporušenú verziu',
  'canary-aborted': 'kanárik ukončený',
  alert: 'len upozornenie',
  contained: 'zadržané: žiadna neporušená verzia, rozhoduje operátor',
};

/**
 * What the integrity watch found (PCI DSS 11.6.1): released files, manifests or the checkout page's
 * headers that differ from what was signed, and what was done about each.
 */
export function Integrity() {
  const report = useLoad(async () => (await call('GET /api/ops/integrity')).data, []).data;
  if (!report) return null;
  return (
    <>
      <h2>Integrita skriptov</h2>
      <p>
        Súbory verzií v prevádzke sa porovnávajú s podpísanými manifestmi každých {every(report.intervalMs)}, po každom vydaní a keď
        prehliadač nahlási chybu načítania. Pri rozdiele:{' '}
        {report.action === 'fallback' ? 'návrat na poslednú neporušenú verziu' : 'len upozornenie'}.
        {report.lastCheck ? ` Posledná kontrola: ${time(report.lastCheck)}.` : ''}
      </p>
      {report.findings.length === 0 ? (
        <p data-testid="ops-integrity-ok">Žiadny súbor sa nelíši od podpísaného.</p>
      ) : (
        <ul className="ops__findings" data-testid="ops-integrity">
          {report.findings.map((finding) => (
            <li key={`${finding.part}-${finding.version}-${finding.subject}-${finding.kind}`}>
              <strong>
                {PART_LABELS[finding.part] ?? finding.part} <code>{finding.version}</code>
              </strong>{' '}
              · <code>{finding.subject}</code> · {FINDING_KINDS[finding.kind] ?? finding.kind} ·{' '}
              {FINDING_ACTIONS[finding.action] ?? finding.action}
              {finding.detail ? ` (${finding.detail})` : ''} · naposledy {time(finding.lastSeen)}
              {finding.expected ? (
                <small>
                  <br />
                  podpísané: <code>{finding.expected}</code>
                  <br />
                  na serveri: <code>{finding.actual ?? 'chýba'}</code>
                </small>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
