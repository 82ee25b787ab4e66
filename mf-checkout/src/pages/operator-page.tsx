import { useState, type FormEvent } from 'react';
import { call, download, useLocation } from '@shop/shared-kernel';
import { usePageMeta } from '@shop/shared-kernel/react';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

/**
 * The operator's document tools of the utility routes of requirements R2.2, behind the operator token
 * (kept in sessionStorage for the tab): /pdf renders the invoice, /generate stores it in the
 * data directory, /email previews the confirmation, /send sends it again, /paid marks a bank
 * transfer paid. Orders are picked by number.
 */
type Tool = 'pdf' | 'generate' | 'email' | 'send' | 'paid';

const TOOLS: Record<Tool, { title: string; action: string }> = {
  pdf: { title: 'Faktúra (PDF)', action: 'Zobraziť faktúru' },
  generate: { title: 'Vygenerovať faktúru', action: 'Vygenerovať PDF' },
  email: { title: 'Náhľad potvrdzujúceho e-mailu', action: 'Zobraziť e-mail' },
  send: { title: 'Znova poslať potvrdenie', action: 'Poslať e-mail' },
  paid: { title: 'Označiť prevod ako zaplatený', action: 'Označiť ako zaplatenú' },
};

type Outcome = { text: string; pdf?: Blob; mail?: string };

/** One tool's call through the kernel's API client (the operator token in its own header) and what it shows. */
async function runTool(tool: Tool, operatorToken: string, number: string): Promise<Outcome> {
  const order = { params: { number }, operatorToken };
  switch (tool) {
    case 'pdf':
      return { text: 'Faktúra je zobrazená nižšie.', pdf: await download('GET /api/operator/orders/:number/invoice', order) };
    case 'generate': {
      const { data } = await call('POST /api/operator/orders/:number/invoice', order);
      return { text: `Faktúra uložená: ${data.file} (${data.bytes} B).` };
    }
    case 'email': {
      const { data } = await call('GET /api/operator/orders/:number/email', order);
      // The message's text part: its HTML part (inline styles, as e-mail needs) cannot be shown under the page's
      // policy, which a srcdoc frame inherits, and writing it would need a Trusted Types exception.
      return { text: `Komu: ${data.to} · Predmet: ${data.subject}`, mail: data.text };
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
  const named = (pathname.split('/')[1] ?? 'pdf') as Tool;
  const tool: Tool = named in TOOLS ? named : 'pdf';
  const config = TOOLS[tool];
  usePageMeta({ title: config.title, description: 'Nástroje operátora obchodu.' });
  const [token, setToken] = useState(readToken);
  const [number, setNumber] = useState(new URLSearchParams(search).get('order') ?? '');
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const [mail, setMail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setMail(null);
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
      const outcome = await runTool(tool, token, number.trim());
      if (outcome.pdf) setPdfUrl(URL.createObjectURL(outcome.pdf));
      if (outcome.mail !== undefined) setMail(outcome.mail);
      setResult({ kind: 'ok', text: outcome.text });
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
        <button type="submit" className="button button--primary" disabled={busy}>
          {config.action}
        </button>
      </form>
      {result && (
        <p className={`chk-message chk-message--${result.kind === 'ok' ? 'ok' : 'error'}`} role={result.kind === 'ok' ? 'status' : 'alert'}>
          {result.text}
        </p>
      )}
      {pdfUrl && <iframe className="chk-operator__frame" title="Faktúra" src={pdfUrl} />}
      {mail !== null && (
        <pre className="chk-operator__mail" aria-label="Náhľad e-mailu" data-testid="mail-preview">
          {mail}
        </pre>
      )}
    </section>
  );
}
