import { Fragment } from 'react';
import { formatPrice, totalsRows, type TotalsFigures, type TotalsRowKind } from '@shop/shared-kernel/rules';
import type { OrderLine } from '@shop/shared-kernel/contract';

const TEST_IDS: Partial<Record<TotalsRowKind, string>> = { discount: 'order-discount', total: 'order-total', amountDue: 'amount-due' };

/** The lines and totals of a quote or an order, as the API priced them, in the kernel's layout of totals. */
export function OrderLines({ lines, totals }: { lines: OrderLine[]; totals: TotalsFigures }) {
  return (
    <div className="chk-order-lines">
      <table>
        <caption className="visually-hidden">Položky objednávky</caption>
        <thead>
          <tr>
            <th scope="col">Tovar</th>
            <th scope="col">Množstvo</th>
            <th scope="col">Spolu</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.v_id} data-testid="order-line">
              <td>
                {line.p_name} <small>({line.v_name})</small>
              </td>
              <td>
                {line.amount} {line.v_unit} × {formatPrice(line.unitPrice)}
              </td>
              <td>{formatPrice(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="chk-totals">
        {totalsRows(totals).map((row, i) => {
          const total = row.kind === 'total' ? 'chk-summary__total' : undefined;
          return (
            <Fragment key={i}>
              <dt className={total}>
                {row.label}
                {row.vat && ` (základ ${formatPrice(row.vat.base)})`}
              </dt>
              <dd className={total} data-testid={TEST_IDS[row.kind]}>
                {row.shown}
              </dd>
            </Fragment>
          );
        })}
      </dl>
    </div>
  );
}
