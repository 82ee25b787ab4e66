import { formatDate } from '@shop/shared-kernel/rules';
import type { CspViolationGroup } from '@shop/shared-kernel/contract';
import { call } from '../api.ts';
import { useLoad } from '../use-load.ts';

const PAGES: Record<string, string> = {
  home: 'úvodná stránka',
  category: 'kategória a zoznamy',
  product: 'produkt',
  cart: 'košík',
  checkout: 'objednávka',
  account: 'zákaznícky účet',
  content: 'obsah a blog',
  other: 'iné',
};
const PARTS: Record<string, string> = {
  shell: 'shell',
  catalog: 'katalóg',
  checkout: 'košík a objednávka',
  account: 'účet',
  content: 'obsah',
  inline: 'vložený skript alebo štýl',
  external: 'iný pôvod',
  other: 'iné',
};

const time = (iso: string) => `${formatDate(iso)} ${iso.slice(11, 16)} UTC`;

/** Violations summed per page type and part, the most frequent first. */
function perPageAndPart(groups: CspViolationGroup[]): { page: string; part: string; count: number }[] {
  const sums = new Map<string, { page: string; part: string; count: number }>();
  for (const group of groups) {
    const key = `${group.page}/${group.part}`;
    const sum = sums.get(key) ?? { page: group.page, part: group.part, count: 0 };
    sum.count += group.count;
    sums.set(key, sum);
  }
  return [...sums.values()].sort((a, b) => b.count - a.count);
}

/**
 * What the browsers blocked on the shop's pages in the last 7 days: per page type and part, and each
 * directive and blocked origin with its first and last report (an attack, or a release the policy
 * does not admit).
 */
export function CspViolations() {
  const report = useLoad(async () => (await call('GET /api/ops/csp-violations')).data, []).data;
  if (!report) return null;
  const total = report.groups.reduce((sum, group) => sum + group.count, 0);
  return (
    <>
      <h2>Porušenia bezpečnostnej politiky (CSP)</h2>
      {total === 0 ? (
        <p data-testid="ops-csp-none">Od {formatDate(report.since)} prehliadače nenahlásili žiadne porušenie.</p>
      ) : (
        <>
          <p>
            Od {formatDate(report.since)} nahlásené porušenia: {total}.
          </p>
          <ul className="ops__csp-summary" data-testid="ops-csp-summary">
            {perPageAndPart(report.groups).map((sum) => (
              <li key={`${sum.page}/${sum.part}`}>
                {PAGES[sum.page] ?? sum.page} · {PARTS[sum.part] ?? sum.part}: <strong>{sum.count}</strong>
              </li>
            ))}
          </ul>
          <table className="ops__table" data-testid="ops-csp">
            <caption className="visually-hidden">Porušenia podľa stránky, časti, direktívy a blokovaného pôvodu</caption>
            <thead>
              <tr>
                <th scope="col">Stránka</th>
                <th scope="col">Časť</th>
                <th scope="col">Direktíva</th>
                <th scope="col">Blokovaný pôvod</th>
                <th scope="col">Počet</th>
                <th scope="col">Naposledy</th>
              </tr>
            </thead>
            <tbody>
              {report.groups.map((group) => (
                <tr key={`${group.page}/${group.part}/${group.directive}/${group.blockedOrigin}`}>
                  <td>{PAGES[group.page] ?? group.page}</td>
                  <td>{PARTS[group.part] ?? group.part}</td>
                  <td>
                    <code>{group.directive}</code>
                  </td>
                  <td>
                    <code>{group.blockedOrigin}</code>
                  </td>
                  <td>{group.count}</td>
                  <td>{time(group.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
