import { Fragment } from 'react';
import { formatFee, formatPrice } from '@shop/shared-kernel/rules';
import type { OrderLine, VatLine } from '@shop/shared-kernel/contract';

type Totals = {
  lines: OrderLine[];
  itemsTotal: number;
  discount: number;
  couponCode: string | null;
  shipping: { name: string; price: number } | null;
  payment: { name: string; price: number } | null;
  total: number;
  amountDue: number;
  vat: VatLine[];
};

/** The lines and totals of a quote or an order, as the API priced them. */
export function OrderLines(props: Totals) {
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
          {props.lines.map((line) => (
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
        <dt>Tovar spolu</dt>
        <dd>{formatPrice(props.itemsTotal)}</dd>
        {props.discount > 0 && (
          <>
            <dt>Zľava{props.couponCode ? ` (kupón ${props.couponCode})` : ''}</dt>
            <dd data-testid="order-discount">−{formatPrice(props.discount)}</dd>
          </>
        )}
        {props.shipping && (
          <>
            <dt>Doprava: {props.shipping.name}</dt>
            <dd>{formatFee(props.shipping.price)}</dd>
          </>
        )}
        {props.payment && (
          <>
            <dt>Platba: {props.payment.name}</dt>
            <dd>{formatFee(props.payment.price)}</dd>
          </>
        )}
        {props.vat.map((v) => (
          <Fragment key={v.rate}>
            <dt>
              z toho DPH {v.rate} % (základ {formatPrice(v.base)})
            </dt>
            <dd>{formatPrice(v.vat)}</dd>
          </Fragment>
        ))}
        <dt className="chk-summary__total">Spolu s DPH</dt>
        <dd className="chk-summary__total" data-testid="order-total">
          {formatPrice(props.total)}
        </dd>
        {props.amountDue !== props.total && (
          <>
            <dt>Na úhradu v hotovosti (zaokrúhlené na 0,05 €)</dt>
            <dd data-testid="amount-due">{formatPrice(props.amountDue)}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
