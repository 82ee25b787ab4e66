import { call } from '../api.ts';
import { size, time } from '../format.ts';
import { useLoad } from '../use-load.ts';

/**
 * Every script a page of the shop can run, from the registry: the assessor's inventory (PCI DSS
 * 6.4.3) with each file's SHA-384, who released it and when, the third parties and the policy in force.
 */
export function Inventory() {
  const inventory = useLoad(async () => (await call('GET /api/ops/inventory')).data, []).data;
  if (!inventory) return null;
  return (
    <>
      <h2>Skripty na stránkach</h2>
      <ul className="ops__inventory" data-testid="ops-inventory">
        {inventory.parts.map((part) => (
          <li key={`${part.part}-${part.version}`}>
            <details>
              <summary>
                {part.part} <code>{part.version}</code>
                {part.state === 'canary' ? ' (kanárik)' : part.state === 'preview' ? ' (náhľad v jednom prehliadači)' : ''} ·{' '}
                {part.pages.includes('*') ? 'všetky stránky' : `stránky: ${part.pages.join(', ')}`} · {part.files.length} súborov,{' '}
                {size(part.files.reduce((sum, f) => sum + f.bytes, 0))} · vydal {part.releasedBy ?? 'neznámy'}
                {part.releasedAt ? ` ${time(part.releasedAt)}` : ''} ·{' '}
                {part.signedBy ? (
                  `podpísal ${part.signedBy}${part.signedAt ? ` ${time(part.signedAt)}` : ''}`
                ) : (
                  <strong>bez platného podpisu</strong>
                )}
              </summary>
              <ul>
                {part.files.map((file) => (
                  <li key={file.file}>
                    <code>{file.file}</code> · {size(file.bytes)} · <code>{file.sha384}</code>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ul>
      <h3>Skripty tretích strán</h3>
      {inventory.thirdParty.length === 0 ? (
        <p>Žiadne.</p>
      ) : (
        <ul>
          {inventory.thirdParty.map((script) => (
            <li key={script.url}>
              <code>{script.url}</code>: {script.loaded}. Prečo: {script.why}.
            </li>
          ))}
        </ul>
      )}
      <h3>Content-Security-Policy stránok</h3>
      <p>
        <code className="ops__policy">{inventory.policy ?? 'žiadna (obchod nemá nasadený shell)'}</code>
      </p>
    </>
  );
}
