import { Link, Navigate, useLocation, useSearchParams, resource, PaginationNav } from '@shop/shared-kernel';
import { formatDate, formatPrice, ORDER_STATE_LABELS, withoutPageQuery, countSk } from '@shop/shared-kernel/rules';
import { usePageMeta, useResource } from '@shop/shared-kernel/react';
import { RequireSignIn } from '../components/require-sign-in.tsx';
import { ITEM_FORMS, PAYMENT_LABELS } from '../components/order-labels.ts';
import { useAccountStyles } from '../use-account-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

function OrderList() {
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const page = Number(params.get('page') ?? '1');
  const valid = Number.isInteger(page) && page >= 1;
  const list = useResource(resource('GET /api/account/orders', { query: { page: valid ? page : 1 } }));
  if (!valid) return <Navigate to={`${pathname}${withoutPageQuery(search)}`} replace />;
  if (list.status === 'error') return <p role="alert">Objednávky sa nepodarilo načítať.</p>;
  if (!list.data) return <div aria-busy="true" className="page-skeleton" />;
  const { data, meta } = list.data;
  // A page above the page count resets to the first page (requirements R2.9).
  if (page > meta.pageCount && meta.total > 0) return <Navigate to={`${pathname}${withoutPageQuery(search)}`} replace />;
  if (meta.total === 0) {
    return (
      <p>
        Zatiaľ nemáte žiadne objednávky. <Link to="/">Pozrite si našu ponuku.</Link>
      </p>
    );
  }
  return (
    <>
      <ul className="acc-cards">
        {data.map((order) => (
          <li key={order.token} className="acc-card acc-order" data-testid="account-order">
            <Link to={shopPaths.order(order.token)} className="acc-order__link">
              Objednávka č. {order.number}
            </Link>
            <span>{formatDate(order.createdAt)}</span>
            <span className={`acc-state acc-state--${order.state}`}>{ORDER_STATE_LABELS[order.state]}</span>
            <span>{PAYMENT_LABELS[order.paymentStatus]}</span>
            <span>{countSk(order.itemCount, ITEM_FORMS)}</span>
            <strong>{formatPrice(order.total)}</strong>
          </li>
        ))}
      </ul>
      <PaginationNav page={meta.page} total={meta.total} pageSize={meta.pageSize} />
    </>
  );
}

export default function OrdersPage() {
  useAccountStyles();
  usePageMeta({ title: 'Moje objednávky' });
  return (
    <RequireSignIn>
      <section>
        <h1>Moje objednávky</h1>
        <OrderList />
      </section>
    </RequireSignIn>
  );
}
