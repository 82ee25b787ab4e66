import { useState, type FormEvent } from 'react';
import { useLocation, usePageMeta } from '@shop/shared-kernel';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

/**
 * The operator's document tools of the spec's utility routes, behind the operator token
 * (kept in sessionStorage for the tab): /pdf renders the invoice, /generate stores it in the
 * data directory, /email previews the confirmation, /send sends it again, /paid marks a bank
 * transfer paid. Orders are picked by number.
 */
type Tool = 'pdf' | 'generate' | 'email' | 'send' | 'paid';

const TOOLS: Record<Tool, { title: string; action: string; method: 'GET' | 'POST'; path: string }> = {
  pdf: { title: 'Faktúra (PDF)', action: 'Zobraziť faktúru', method: 'GET', path: '/invoice' },
  generate: { title: 'Vygenerovať faktúru', action: 'Vygenerovať PDF', method: 'POST', path: '/invoice' },
  email: { title: 'Náhľad potvrdzujúceho e-mailu', action: 'Zobraziť e-mail', method: 'GET', path: '/email' },
  send: { title: 'Znova poslať potvrdenie', action: 'Poslať e-mail', method: 'POST', path: '/email' },
  paid: { title: 'Označiť prevod ako zaplatený', action: 'Označiť ako zaplatenú', method: 'POST', path: '/paid' },
};

const TOKEN_KEY = 'operatorToken';

function readToken(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

export default function OperatorPage() {
  useCheckoutStyles();
  const { pathname, search } = useLocation();
  const tool = (pathname.split('/')[1] ?? 'pdf') as Tool;
  const config = TOOLS[tool] ?? TOOLS.pdf;
  usePageMeta({ title: config.title, description: 'Nástroje operátora obchodu.' });
  const [token, setToken] = useState(readToken);
  const [number, setNumber] = useState(new URLSearchParams(search).get('order') ?? '');
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const [html, setHtml] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setHtml(null);
    if (pdfUrl) URL.revokeObjectURL(pdfUrl);
    setPdfUrl(null);
    if (!/^\d{6,16}$/.test(number.trim())) return setResult({ kind: 'error', text: 'Zadajte číslo objednávky (len číslice).' });
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage refused: the token is kept in this page only
    }
    setBusy(true);
    try {
      const res = await fetch(`/api/operator/orders/${number.trim()}${config.path}`, {
        method: config.method,
        headers: { 'x-operator-token': token },
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `Požiadavka zlyhala (HTTP ${res.status}).`);
      }
      if (tool === 'pdf') {
        setPdfUrl(URL.createObjectURL(await res.blob()));
        setResult({ kind: 'ok', text: 'Faktúra je zobrazená nižšie.' });
      } else {
        const body = (await res.json()) as { data: Record<string, unknown> };
        if (tool === 'email') {
          setHtml(String(body.data.html ?? ''));
          setResult({ kind: 'ok', text: `Komu: ${String(body.data.to)} · Predmet: ${String(body.data.subject)}` });
        } else if (tool === 'generate') setResult({ kind: 'ok', text: `Faktúra uložená: ${String(body.data.file)} (${String(body.data.bytes)} B).` });
        else if (tool === 'send') setResult({ kind: 'ok', text: `Potvrdenie odoslané na ${String(body.data.to)}.` });
        else setResult({ kind: 'ok', text: 'Objednávka je označená ako zaplatená.' });
      }
    } catch (cause) {
      setResult({ kind: 'error', text: cause instanceof Error ? cause.message : 'Požiadavka zlyhala.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="chk-operator">
      <h1>{config.title}</h1>
      <form className="chk-form" onSubmit={(event) => void run(event)}>
        <div className="chk-field">
          <label htmlFor="operator-token">Token operátora</label>
          <input id="operator-token" type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} />
        </div>
        <div className="chk-field">
          <label htmlFor="operator-order">Číslo objednávky</label>
          <input id="operator-order" inputMode="numeric" value={number} onChange={(event) => setNumber(event.target.value)} />
        </div>
        <button type="submit" className="button button--primary" disabled={busy}>{config.action}</button>
      </form>
      {result && (
        <p className={`chk-message chk-message--${result.kind === 'ok' ? 'ok' : 'error'}`} role={result.kind === 'ok' ? 'status' : 'alert'}>
          {result.text}
        </p>
      )}
      {pdfUrl && <iframe className="chk-operator__frame" title="Faktúra" src={pdfUrl} />}
      {html !== null && <iframe className="chk-operator__frame" title="Náhľad e-mailu" sandbox="" srcDoc={html} />}
    </section>
  );
}
