/**
 * The invoice PDF (pdfkit, DejaVu Sans embedded for Slovak diacritics) with what a Slovak invoice
 * must carry: supplier and buyer with IČO, DIČ and IČ DPH, invoice number, dates of issue, of the
 * taxable supply and due date, variable symbol, items with VAT rate, VAT per rate, total.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { OrderDetail, SiteData } from '@shop/shared-kernel/contract';
import { formatDate, formatIban, formatPrice, formatZip, totalsRows, type TotalsRowKind } from '@shop/shared-kernel/rules';

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = join(FONT_DIR, 'DejaVuSans.ttf');
const BOLD = join(FONT_DIR, 'DejaVuSans-Bold.ttf');

const DUE_DAYS = 14;

export function renderInvoicePdf(order: Omit<OrderDetail, 'transfer'>, site: SiteData, iban: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Faktúra ${order.number}`, Author: site.name } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('regular', REGULAR);
    doc.registerFont('bold', BOLD);

    const issued = new Date(order.createdAt);
    const due = new Date(issued.getTime() + DUE_DAYS * 86_400_000);
    doc.font('bold').fontSize(18).text(`Faktúra – daňový doklad č. ${order.number}`);
    doc.font('regular').fontSize(9).moveDown(0.5);
    doc.text(`Dátum vyhotovenia: ${formatDate(issued)}    Dátum dodania: ${formatDate(issued)}    Dátum splatnosti: ${formatDate(due)}`);
    doc.text(`Variabilný symbol: ${order.number}    Forma úhrady: ${order.payment.name}    Objednávka: ${order.number}`);
    doc.moveDown();

    const top = doc.y;
    const c = order.contact;
    doc.font('bold').fontSize(10).text('Dodávateľ', 40, top);
    doc.font('regular').fontSize(9);
    doc.text(site.company.name);
    doc.text(site.address.street);
    doc.text(`${site.address.zip} ${site.address.city}, ${site.address.country}`);
    doc.text(`IČO: ${site.company.ico}`);
    doc.text(`DIČ: ${site.company.dic}`);
    doc.text(`IČ DPH: ${site.company.icDph}`);
    doc.text(`IBAN: ${formatIban(iban)}`);
    const leftBottom = doc.y;

    doc.font('bold').fontSize(10).text('Odberateľ', 310, top);
    doc.font('regular').fontSize(9);
    if (c.company) doc.text(c.company.name, 310);
    doc.text(c.name, 310);
    doc.text(c.billing.street, 310);
    doc.text(`${formatZip(c.billing.zip)} ${c.billing.city}`, 310);
    if (c.company) {
      doc.text(`IČO: ${c.company.ico}`, 310);
      doc.text(`DIČ: ${c.company.dic}`, 310);
      if (c.company.icDph) doc.text(`IČ DPH: ${c.company.icDph}`, 310);
    }
    if (c.delivery)
      doc.text(`Dodacia adresa: ${c.delivery.name}, ${c.delivery.street}, ${formatZip(c.delivery.zip)} ${c.delivery.city}`, 310);
    if (order.pickupPoint) {
      const point = order.pickupPoint;
      doc.text(`Výdajné miesto: ${point.name}, ${point.street}, ${formatZip(point.zip)} ${point.city}`, 310);
    }
    doc.y = Math.max(leftBottom, doc.y) + 16;

    const cols = [40, 300, 360, 440, 480];
    const row = (cells: string[], bold = false) => {
      const y = doc.y;
      doc.font(bold ? 'bold' : 'regular').fontSize(9);
      doc.text(cells[0]!, cols[0], y, { width: 255 });
      const end = doc.y;
      doc.text(cells[1]!, cols[1], y, { width: 55, align: 'right' });
      doc.text(cells[2]!, cols[2], y, { width: 75, align: 'right' });
      doc.text(cells[3]!, cols[3], y, { width: 35, align: 'right' });
      doc.text(cells[4]!, cols[4], y, { width: 75, align: 'right' });
      doc.y = Math.max(end, doc.y) + 4;
      doc.x = 40;
    };
    row(['Položka', 'Množstvo', 'Cena s DPH/j.', 'DPH', 'Spolu s DPH'], true);
    for (const l of order.lines) {
      row([
        `${l.p_name} (${l.v_name}), ${l.v_code}`,
        `${l.amount} ${l.v_unit}`,
        formatPrice(l.unitPrice),
        `${l.vat} %`,
        formatPrice(l.lineTotal),
      ]);
    }
    // The order's totals as every part lays them out, in the invoice's table: the discount, shipping
    // and payment as lines, the VAT per rate as the recapitulation, then the total and what is due.
    const totals = totalsRows(order);
    const rowsOf = (kind: TotalsRowKind) => totals.filter((t) => t.kind === kind);
    for (const t of rowsOf('discount')) row([t.label, '', '', '', t.shown]);
    for (const t of [...rowsOf('shipping'), ...rowsOf('payment')]) row([t.label, '1', formatPrice(t.amount), '', formatPrice(t.amount)]);
    doc.moveDown();

    row(['Rekapitulácia DPH', 'Sadzba', 'Základ', '', 'DPH'], true);
    for (const { vat: v } of rowsOf('vat')) row(['', `${v!.rate} %`, formatPrice(v!.base), '', formatPrice(v!.vat)]);
    doc.moveDown();
    const [total] = rowsOf('total');
    doc.font('bold').fontSize(12).text(`Celkom s DPH: ${total!.shown}`, 40, doc.y, { align: 'right' });
    for (const due of rowsOf('amountDue')) {
      doc
        .font('regular')
        .fontSize(9)
        .text(`Zaokrúhlenie: ${formatPrice(due.amount - total!.amount)}`, { align: 'right' });
      doc.font('bold').fontSize(12).text(`K úhrade: ${due.shown}`, { align: 'right' });
    }
    doc.font('regular').fontSize(9).moveDown();
    doc.text(
      order.paymentStatus === 'paid'
        ? 'Faktúra je uhradená.'
        : `Uhraďte, prosím, do ${formatDate(due)} s variabilným symbolom ${order.number}.`,
      40,
    );
    doc.text(`${site.company.name} je zapísaná v Obchodnom registri. Ďakujeme za nákup.`, 40);
    doc.end();
  });
}
