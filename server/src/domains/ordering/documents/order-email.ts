/** The order confirmation e-mail (Slovak), as text and HTML. */
import { shopPaths, type SiteData } from '@shop/shared-kernel/contract';
import { formatIban, formatPhone, formatPrice, formatZip, totalsRows } from '@shop/shared-kernel/rules';
import type { MailMessage } from '../../../infra/outbox/mailer.ts';
import type { OrderFacts } from '../order-core/order-detail.ts';
import { escapeHtml as escape } from '../../../infra/pure/html.ts';

const PAYMENT_TEXT: Record<string, string> = {
  card: 'Platba kartou online.',
  transfer: 'Uhraďte, prosím, sumu prevodom na účet uvedený nižšie; tovar odošleme po pripísaní platby.',
  cod: 'Sumu zaplatíte kuriérovi pri prevzatí tovaru.',
  cash: 'Sumu zaplatíte pri osobnom odbere na predajni.',
};

export function orderConfirmationEmail(order: OrderFacts, site: SiteData, publicUrl: string | null): MailMessage {
  const subject = `Potvrdenie objednávky č. ${order.number} – ${site.name}`;
  const link = publicUrl ? `${publicUrl}${shopPaths.thankYou(order.token)}` : null;
  const rows = order.lines.map((l) => ({
    name: `${l.p_name} (${l.v_name})`,
    amount: `${l.amount} ${l.v_unit}`,
    total: formatPrice(l.lineTotal),
  }));
  // The order's totals as every part lays them out; the e-mail leaves the VAT per rate to the invoice.
  const sums = totalsRows(order)
    .filter((row) => row.kind !== 'vat')
    .map((row): [string, string] => [row.label, row.shown]);
  const transfer = order.transfer
    ? [
        `IBAN: ${formatIban(order.transfer.iban)}`,
        `Variabilný symbol: ${order.transfer.variableSymbol}`,
        `Suma: ${formatPrice(order.transfer.amount)}`,
      ]
    : [];
  const c = order.contact;
  const point = order.pickupPoint;
  const pickup = point ? `Výdajné miesto: ${point.name}, ${point.street}, ${formatZip(point.zip)} ${point.city} (${point.hours})` : null;
  const address = `${c.name}, ${c.billing.street}, ${formatZip(c.billing.zip)} ${c.billing.city}, tel. ${formatPhone(c.phone)}`;

  const text = [
    `Dobrý deň, ${c.name},`,
    '',
    `ďakujeme za objednávku č. ${order.number}. Prijali sme ju a budeme vás informovať o jej vybavení.`,
    '',
    ...rows.map((r) => `${r.name} – ${r.amount} – ${r.total}`),
    '',
    ...sums.map(([k, v]) => `${k}: ${v}`),
    '',
    PAYMENT_TEXT[order.payment.code] ?? '',
    ...transfer,
    '',
    ...(pickup ? [pickup] : []),
    `Fakturačná adresa: ${address}`,
    ...(c.company
      ? [`Firma: ${c.company.name}, IČO ${c.company.ico}, DIČ ${c.company.dic}${c.company.icDph ? `, IČ DPH ${c.company.icDph}` : ''}`]
      : []),
    ...(link ? ['', `Stav objednávky: ${link}`] : []),
    '',
    `${site.name}, ${site.phone}, ${site.email}`,
  ].join('\n');

  const html = `<!doctype html><html lang="sk"><head><meta charset="utf-8"><title>${escape(subject)}</title></head><body style="font-family:Arial,sans-serif;color:#222">
<p>Dobrý deň, ${escape(c.name)},</p>
<p>ďakujeme za objednávku č. <strong>${escape(order.number)}</strong>. Prijali sme ju a budeme vás informovať o jej vybavení.</p>
<table cellpadding="6" style="border-collapse:collapse">${rows
    .map((r) => `<tr><td>${escape(r.name)}</td><td>${escape(r.amount)}</td><td align="right">${escape(r.total)}</td></tr>`)
    .join('')}</table>
<table cellpadding="4">${sums.map(([k, v]) => `<tr><td>${escape(k)}</td><td align="right"><strong>${escape(v)}</strong></td></tr>`).join('')}</table>
<p>${escape(PAYMENT_TEXT[order.payment.code] ?? '')}</p>
${transfer.length ? `<p>${transfer.map(escape).join('<br>')}</p><p><img src="cid:paybysquare" alt="PAY by square" width="200" height="200"></p>` : ''}
${pickup ? `<p>${escape(pickup)}</p>` : ''}
<p>Fakturačná adresa: ${escape(address)}</p>
${link ? `<p><a href="${escape(link)}">Zobraziť objednávku</a></p>` : ''}
<p>${escape(site.name)}, ${escape(site.phone)}, ${escape(site.email)}</p>
</body></html>`;
  return { to: c.email, subject, text, html };
}
