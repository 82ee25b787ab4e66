import { useCallback, useEffect, useRef, useState } from 'react';
import { call, resource, type OpsReleaseAction } from '@shop/shared-kernel';
import { formatDate, formatPrice } from '@shop/shared-kernel/rules';
import { dataOf, usePageMeta, useResource, useSubmit } from '@shop/shared-kernel/react';
import type { ApiCalls, PaymentRefund, ReleaseMove, ReleasePart, ReleasePartStatus, ReleaseStatus } from '@shop/shared-kernel/contract';
import { useMarkInteractive } from '../app/mark-interactive.ts';
import { CspViolations } from './ops-csp.tsx';
import { WebVitals } from './ops-vitals.tsx';
import { useOpsSession } from '../layouts/ops-session.tsx';

type OpsCall<A extends OpsReleaseAction> = ApiCalls[`POST /api/ops/releases/:part/${A}`];

const partLabels: Record<ReleasePart, string> = {
  shell: 'Shell (rámec)',
  catalog: 'Katalóg',
  checkout: 'Košík a objednávka',
  account: 'Zákaznícky účet',
  content: 'Obsah',
};

const time = (iso: string | null) => (iso ? `${formatDate(iso)} ${iso.slice(11, 16)} UTC` : '—');

const REFUND_STATUS: Record<PaymentRefund['status'], string> = {
  pending: 'čaká na bránu',
  refunded: 'vrátená',
  failed: 'brána odmietla – skontrolujte',
};

/** Card payments the shop refunds (a second payment of an order, or one after it ended). */
function Refunds() {
  const refunds = useResource(resource('GET /api/ops/refunds'), { select: dataOf }).data;
  if (!refunds) return null;
  return (
    <>
      <h2>Vrátené platby</h2>
      {refunds.length === 0 ? (
        <p>Žiadna platba nebola zaplatená dvakrát.</p>
      ) : (
        <ul className="ops__refunds" data-testid="ops-refunds">
          {refunds.map((r) => (
            <li key={r.paymentId}>
              Objednávka č. {r.orderNumber} · {formatPrice(r.amountCents * 10)} · {REFUND_STATUS[r.status]} · {r.reason ?? ''} ·{' '}
              {time(r.refundedAt ?? r.paidAt)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const decimal = (value: number) => value.toLocaleString('sk-SK', { maximumFractionDigits: 1 });
const size = (bytes: number | null) =>
  bytes === null ? '—' : bytes >= 1024 * 1024 ? `${decimal(bytes / 1024 / 1024)} MB` : `${decimal(bytes / 1024)} kB`;
const every = (ms: number) =>
  ms < 60_000 ? `${decimal(ms / 1000)} s` : ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${decimal(ms / 60_000)} min`;

/** The last backup, and the last attempt when it failed (the worker tries again at the next interval). */
/** Where a backup is kept, in Slovak: a directory's path, or the bucket's address as it is. */
const whereKept = (destination: string) => destination.replace(/^directory /, 'priečinok ');

function Backups() {
  const overview = useResource(resource('GET /api/ops/backups'), { select: dataOf }).data;
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
            {time(lastSuccess.finishedAt)} · {size(lastSuccess.bytes)} · trvala {decimal(lastSuccess.durationMs / 1000)} s ·{' '}
            <code>{lastSuccess.name}</code> ({whereKept(lastSuccess.destination)})
          </>
        ) : (
          'zatiaľ žiadna'
        )}
      </p>
      {failedLast && (
        <p role="alert" className="ops__backup-failure" data-testid="ops-backup-failure">
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

/**
 * Every script a page of the shop can run, from the registry: the assessor's inventory (PCI DSS
 * 6.4.3) with each file's SHA-384, who released it and when, the third parties and the policy in force.
 */
function Inventory() {
  const inventory = useResource(resource('GET /api/ops/inventory'), { select: dataOf }).data;
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
                {part.state === 'canary' ? ' (kanárik)' : ''} ·{' '}
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

/** What an audit entry's action means, in Slovak; an action not listed is shown as it is. */
const AUDIT_ACTIONS: Record<string, string> = {
  upload: 'nahratie vydania',
  rollback: 'návrat',
  pin: 'pripnutie',
  unpin: 'odopnutie',
  promote: 'povýšenie kanárika',
  abort: 'zrušenie kanárika',
  preview: 'odkaz na náhľad',
  read: 'otvorenie stránky operátora',
  'credential-create': 'nový prístup tímu',
  'credential-revoke': 'zrušený prístup tímu',
  'key-revoke': 'zrušená dôvera v podpisový kľúč',
  'sign-in': 'prihlásenie',
  'sign-out': 'odhlásenie',
  'operator-create': 'nový operátor',
  'operator-revoke': 'zrušený operátor',
  'sessions-revoke': 'ukončené prihlásenia operátora',
};

/** Every release action, allowed or refused, newest first: who did what to which part. */
function Audit() {
  const entries = useResource(resource('GET /api/ops/audit'), { select: dataOf }).data;
  if (!entries) return null;
  return (
    <>
      <h2>Záznam vydaní</h2>
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

const FINDING_KINDS: Record<string, string> = {
  file: 'súbor sa líši',
  cache: 'kópia na disku servera sa líši',
  cdn: 'CDN posiela iné bajty',
  signature: 'neplatný podpis manifestu',
  headers: 'bezpečnostné hlavičky',
};
const FINDING_ACTIONS: Record<string, string> = {
  fallback: 'vrátené na poslednú neporušenú verziu',
  'canary-aborted': 'kanárik ukončený',
  alert: 'len upozornenie',
};

/**
 * What the integrity watch found (PCI DSS 11.6.1): released files, manifests or the checkout page's
 * headers that differ from what was signed, and what was done about each.
 */
function Integrity() {
  const report = useResource(resource('GET /api/ops/integrity'), { select: dataOf }).data;
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
                {partLabels[finding.part as ReleasePart] ?? finding.part} <code>{finding.version}</code>
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

const ACTIONS: Record<ReleaseMove['action'], string> = {
  deploy: 'nasadenie',
  rollback: 'návrat',
  publish: 'zverejnenie na náhľad',
  canary: 'kanárske vydanie',
  promote: 'povýšenie kanárika',
  abort: 'zrušenie kanárika',
  pin: 'pripnutie',
  unpin: 'odopnutie',
};

const percent = (errors: number, views: number) =>
  views === 0 ? '—' : `${((errors / views) * 100).toLocaleString('sk-SK', { maximumFractionDigits: 1 })} %`;

/** Page views and error rate of one version over the last hour. */
function Health({ data, part, version }: { data: ReleaseStatus; part: ReleasePart; version: string | null }) {
  const row = data.health.find((item) => item.area === part && item.version === version);
  if (!version || part === 'shell') return null;
  return (
    <span className="ops__health" data-testid={`health-${part}-${version}`}>
      {row ? `${row.views} zobrazení, chybovosť ${percent(row.errors, row.views)}` : 'bez zobrazení'} za hodinu
    </span>
  );
}

type Act = <A extends OpsReleaseAction>(
  part: ReleasePart,
  action: A,
  body: OpsCall<A>['body'],
  done: (result: OpsCall<A>['answer']) => string,
) => Promise<void>;

/** One part: its version, pin, canary, last-hour health, and the moves an operator can make. */
function PartRow({ data, part, busy, act }: { data: ReleaseStatus; part: ReleasePartStatus; busy: boolean; act: Act }) {
  const label = partLabels[part.part];
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
            <Health data={data} part={part.part} version={part.canary.version} />{' '}
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

const SESSION_ENDED = 'Prihlásenie vypršalo alebo bolo zrušené. Prihláste sa znova.';
const isUnauthorized = (error: unknown) => (error as { status?: number }).status === 401;

/** The operator's sign-in: name and password; the session is an HttpOnly cookie the page never sees. */
function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (name: string) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { onSubmit, busy, error } = useSubmit(
    async () => {
      const answer = await call('POST /api/ops/session', { body: { name: name.trim(), password } });
      setPassword('');
      onSignedIn(answer.data.name);
    },
    (failure) => (failure as Error).message,
  );
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const shown = error ?? notice;
  return (
    <section className="ops">
      <h1>Vydania</h1>
      <h2>Prihlásenie operátora</h2>
      <form className="ops__login" onSubmit={onSubmit}>
        <label htmlFor="ops-name">Meno</label>
        <input
          id="ops-name"
          name="username"
          autoComplete="username"
          maxLength={40}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={shown ? 'ops-sign-in-error' : undefined}
        />
        <label htmlFor="ops-password">Heslo</label>
        <input
          id="ops-password"
          name="password"
          type="password"
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={shown ? 'ops-sign-in-error' : undefined}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          Prihlásiť sa
        </button>
      </form>
      {shown && (
        <p role="alert" id="ops-sign-in-error" ref={errorRef} tabIndex={-1}>
          {shown}
        </p>
      )}
    </section>
  );
}

/** Operator page: versions in force, pins, canaries, health, history; rollback and the rest with the same code as `pnpm release`. */
export function OpsPage() {
  useMarkInteractive();
  usePageMeta({ title: 'Vydania' });
  // undefined while the page asks who is signed in; null when nobody is (the operators' layout asks).
  const { operator, notice, signedIn, ended: sessionEnded } = useOpsSession();
  const [data, setData] = useState<ReleaseStatus | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<ReleasePart | null>(null);

  /** The session ended (expired, signed out elsewhere, revoked by the owner): back to the sign-in form. */
  const ended = useCallback(() => sessionEnded(SESSION_ENDED), [sessionEnded]);
  // Signed out (here, in the header, or the session ended): nothing of the last operator's view stays.
  useEffect(() => {
    if (operator) return;
    setData(null);
    setMessage(null);
  }, [operator]);

  const load = useCallback(async () => {
    if (!operator) return;
    try {
      setData((await call('GET /api/ops/releases')).data);
    } catch (error) {
      if (isUnauthorized(error)) ended();
      else setMessage({ kind: 'error', text: (error as Error).message });
    }
  }, [operator, ended]);

  useEffect(() => {
    void load();
  }, [load]);

  const act: Act = async (part, action, body, done) => {
    setBusy(part);
    try {
      // One call of the contract per move: the move names the call.
      const move = call as <K extends `POST /api/ops/releases/:part/${typeof action}`>(
        name: K,
        args: { params: { part: string }; body: typeof body },
      ) => Promise<OpsCall<typeof action>['answer']>;
      const result = await move(`POST /api/ops/releases/:part/${action}`, { params: { part }, body });
      setMessage({ kind: 'ok', text: done(result) });
      await load();
    } catch (error) {
      if (isUnauthorized(error)) ended();
      else setMessage({ kind: 'error', text: (error as Error).message });
    } finally {
      setBusy(null);
    }
  };

  if (operator === undefined) {
    return (
      <section className="ops">
        <h1>Vydania</h1>
        <p role="status">Načítava sa…</p>
      </section>
    );
  }
  if (operator === null) {
    return <SignIn notice={notice} onSignedIn={signedIn} />;
  }

  return (
    <section className="ops">
      <h1>Vydania</h1>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={`ops__message ops__message--${message.kind}`}>
          {message.text}
        </p>
      )}
      {data && (
        <>
          {!data.registry && <p role="alert">Na tomto serveri nie je register vydaní. Skontrolujte DATA_DIR.</p>}
          {data.lock && (
            <p className="ops__lock" data-testid="ops-lock">
              Zámok vydaní drží: {data.lock.what} (proces {data.lock.pid} na {data.lock.host} od {time(data.lock.since)})
              {data.lock.stale ? ` – zastaraný (${data.lock.staleBecause}), ďalšie vydanie alebo návrat ho uvoľní` : ''}.
            </p>
          )}
          <p>
            Revízia registra: <code>{data.revision}</code>
          </p>
          <table className="ops__table">
            <caption className="visually-hidden">Verzie v prevádzke</caption>
            <thead>
              <tr>
                <th scope="col">Časť</th>
                <th scope="col">Verzia v prevádzke</th>
                <th scope="col">Akcia</th>
              </tr>
            </thead>
            <tbody>
              {data.parts.map((part) => (
                <PartRow key={part.part} data={data} part={part} busy={busy !== null} act={act} />
              ))}
            </tbody>
          </table>
          <h2>História</h2>
          <ol className="ops__history" reversed>
            {[...data.history].reverse().map((move, index) => (
              <li key={`${move.at}-${index}`}>
                {time(move.at)} · {move.who} · {ACTIONS[move.action]} · {partLabels[move.part]}: <code>{move.from ?? '—'}</code> →{' '}
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
      )}
      <WebVitals />
      <Refunds />
      <Integrity />
      <Backups />
      <Audit />
      <Inventory />
      <CspViolations />
    </section>
  );
}
