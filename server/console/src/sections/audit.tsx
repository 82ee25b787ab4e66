import { call } from '../api.ts';
import { time } from '../format.ts';
import { useLoad } from '../use-load.ts';

/** What an audit entry's action means, in Slovak; an action not listed is shown as it is. */
const AUDIT_ACTIONS: Record<string, string> = {
  upload: 'nahratie vydania',
  rollback: 'návrat',
  pin: 'pripnutie',
  unpin: 'odopnutie',
  promote: 'povýšenie kanárika',
  abort: 'zrušenie kanárika',
  preview: 'odkaz na náhľad',
  'preview-link': 'vydaný odkaz na náhľad',
  'preview-revoke': 'zrušený náhľad',
  deploy: 'nasadenie',
  publish: 'zverejnenie bez nasadenia',
  canary: 'kanárske vydanie',
  floor: 'verzia označená ako nepoužiteľná',
  'floor-lift': 'zrušené označenie nepoužiteľnej verzie',
  'move-request': 'požiadavka nástroja vydaní',
  'registry-adopt': 'register prevzatý z pôvodu',
  'shop-key-register': 'zaregistrovaný kľúč obchodu',
  read: 'otvorenie konzoly operátora',
  'credential-create': 'nový prístup tímu',
  'credential-revoke': 'zrušený prístup tímu',
  'key-revoke': 'zrušená dôvera v podpisový kľúč',
  'machine-create': 'nový prístup stroja (metriky)',
  'machine-revoke': 'zrušený prístup stroja',
  'sign-in': 'prihlásenie',
  'sign-out': 'odhlásenie',
  reauth: 'potvrdenie kódom',
  'second-factor-start': 'začaté nastavenie druhého faktora',
  'second-factor-confirm': 'nastavený druhý faktor',
  'operator-create': 'nový operátor',
  'operator-revoke': 'zrušený operátor',
  'operator-totp-reset': 'zrušený druhý faktor operátora',
  'sessions-revoke': 'ukončené prihlásenia operátora',
  'order-read': 'zobrazenie objednávky',
  'invoice-read': 'zobrazenie faktúry',
  'invoice-generate': 'uloženie faktúry',
  'email-preview': 'náhľad potvrdenia',
  'email-send': 'opätovné odoslanie potvrdenia',
  'order-paid': 'prevod označený ako zaplatený',
  'order-state': 'zmena stavu objednávky',
  'complaint-state': 'zmena stavu reklamácie',
  'refund-by-hand': 'platba vrátená ručne',
  'redirect-put': 'uložené presmerovanie',
  'redirect-delete': 'zrušené presmerovanie',
  flag: 'prepínač funkcie',
  flags: 'zobrazenie prepínačov funkcií',
};

/** Every privileged action, allowed or refused, newest first: who did what to which part or record. */
export function Audit({ changed = 0 }: { changed?: number }) {
  const entries = useLoad(async () => (await call('GET /api/ops/audit')).data, [changed]).data;
  if (!entries) return null;
  return (
    <>
      <h2>Záznam akcií</h2>
      {entries.length === 0 ? (
        <p>Zatiaľ žiadne zmeny.</p>
      ) : (
        <ol className="ops__audit" data-testid="ops-audit">
          {entries.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              {time(entry.at)} · {entry.actor} · {AUDIT_ACTIONS[entry.action] ?? entry.action}
              {entry.part ? ` · ${entry.part}` : ''}
              {entry.detail ? ` · ${entry.detail}` : ''} · <strong>{entry.allowed ? 'povolené' : 'odmietnuté'}</strong>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
