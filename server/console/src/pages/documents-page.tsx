import { useState, type FormEvent } from 'react';

import { call, messageOf, sessionEnded } from '../api.ts';
import { DOCUMENT_TOOLS, Link, useLocation, type DocumentTool } from '../router.tsx';
import { useSession } from '../session/session.tsx';
import { useTitle } from '../use-title.ts';
import { OrderStateForm } from './order-state-form.tsx';

/**
 * The operator's document tools (the utility routes of requirements R2.2: /pdf, /generate, /email,
 * /send, /paid, which on the shop send the operator here): the invoice shown or a copy kept, the
 * confirmation previewed or sent again, a bank transfer marked paid; and an order's or a complaint's
 * state. Orders by number.
 */
const TOOLS: Record<DocumentTool, { title: string; action: string }> = {
  pdf: { title: 'Faktúra (PDF)', action: 'Zobraziť faktúru' },
  generate: { title: 'Vygenerovať faktúru', action: 'Vygenerovať PDF' },
  email: { title: 'Náhľad potvrdzujúceho e-mailu', action: 'Zobraziť e-mail' },
  send: { title: 'Znova poslať potvrdenie', action: 'Poslať e-mail' },
  paid: { title: 'Označiť prevod ako zaplatený', action: 'Označiť ako zaplatenú' },
};

type Outcome = { text: string; invoice?: string; preview?: string };

/** One tool's call and what it shows. */
async function runTool(tool: DocumentTool, number: string): Promise<Outcome> {
  const order = { params: { number } };
  switch (tool) {
    case 'pdf':
      // The PDF opens in a tab of its own, from this origin, with the operator's session.
      await call('GET /api/operator/orders/:number', order);
      return { text: 'Faktúra je pripravená.', invoice: `/api/operator/orders/${number}/invoice` };
    case 'generate': {
      const { data } = await call('POST /api/operator/orders/:number/invoice', order);
      return { text: `Faktúra uložená: ${data.file} (${data.bytes} B).` };
    }
    case 'email': {
      const { data } = await call('GET /api/operator/orders/:number/email', order);
      return { text: `Komu: ${data.to} · Predmet: ${data.subject}`, preview: data.text };
    }
    case 'send': {
      const { data } = await call('POST /api/operator/orders/:number/email', order);
      return { text: `Potvrdenie odoslané na ${data.to}.` };
    }
    case 'paid':
      await call('POST /api/operator/orders/:number/paid', order);
      return { text: 'Objednávka je označená ako zaplatená.' };
  }
}

export function DocumentsPage({ tool }: { tool: DocumentTool }) {
  const { location } = useLocation();
  const { ended } = useSession();
  const config = TOOLS[tool];
  useTitle(config.title);
  const [number, setNumber] = useState(new URLSearchParams(location.search).get('order') ?? '');
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; outcome: Outcome } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const given = number.trim();
    if (!/^\d{6,16}$/.test(given)) return setResult({ kind: 'error', outcome: { text: 'Zadajte číslo objednávky (len číslice).' } });
    setBusy(true);
    try {
      setResult({ kind: 'ok', outcome: await runTool(tool, given) });
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setResult({ kind: 'error', outcome: { text: messageOf(failure) } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="ops">
      <h1>Objednávky</h1>
      <nav className="ops__tabs" aria-label="Nástroje objednávok">
        {DOCUMENT_TOOLS.map((name) => (
          <Link
            key={name}
            href={`/ops/doklady/${name}${number ? `?order=${encodeURIComponent(number.trim())}` : ''}`}
            current={name === tool}
          >
            {TOOLS[name].title}
          </Link>
        ))}
      </nav>
      <h2>{config.title}</h2>
      <form className="ops__form" onSubmit={(event) => void run(event)}>
        <label htmlFor="operator-order">Číslo objednávky</label>
        <input id="operator-order" inputMode="numeric" maxLength={16} value={number} onChange={(event) => setNumber(event.target.value)} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {config.action}
        </button>
      </form>
      {result && (
        <p className={`ops__message ops__message--${result.kind}`} role={result.kind === 'ok' ? 'status' : 'alert'}>
          {result.outcome.text}
        </p>
      )}
      {result?.outcome.invoice && (
        <p>
          <a className="button" href={result.outcome.invoice} target="_blank" rel="noopener">
            Otvoriť faktúru (PDF)
          </a>
        </p>
      )}
      {result?.outcome.preview !== undefined && (
        <pre className="ops__preview" data-testid="email-preview">
          {result.outcome.preview}
        </pre>
      )}
      <OrderStateForm number={number.trim()} />
    </section>
  );
}
