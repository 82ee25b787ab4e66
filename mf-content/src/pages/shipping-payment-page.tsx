import { resource } from '@shop/shared-kernel';
import { formatNumber, formatPrice } from '@shop/shared-kernel/rules';
import { dataOf, LoadFailed, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { shopPaths, type ShippingPriceList } from '@shop/shared-kernel/contract';
import { useContentStyles } from '../use-content-styles.ts';

type Shipping = ShippingPriceList['shipping'][number];

const kg = (grams: number) => `${formatNumber(grams / 1000)} kg`;
const priceOrFree = (price: number, free = 'zadarmo') => (price === 0 ? free : formatPrice(price));

function ShippingPrice({ method }: { method: Shipping }) {
  if (method.pallet) {
    return (
      <p>
        {formatPrice(method.price)} za každú začatú paletu (do {kg(method.pallet.perWeight)}), pre objednávky nad{' '}
        {kg(method.pallet.minWeight)}.
      </p>
    );
  }
  return (
    <>
      {method.bands.length > 0 ? (
        <table className="cnt-prices">
          <caption className="visually-hidden">Cena podľa hmotnosti: {method.name}</caption>
          <thead>
            <tr>
              <th scope="col">Hmotnosť objednávky</th>
              <th scope="col">Cena</th>
            </tr>
          </thead>
          <tbody>
            {method.bands.map((band) => (
              <tr key={band.maxWeight} data-testid={`band-${method.code}-${band.maxWeight}`}>
                <td>do {kg(band.maxWeight)}</td>
                <td>{priceOrFree(band.price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p data-testid={`price-${method.code}`}>{priceOrFree(method.price)}</p>
      )}
      {method.maxWeight !== null && method.bands.length === 0 && <p>Pre objednávky do {kg(method.maxWeight)}.</p>}
      {method.freeFrom !== null && <p className="cnt-free">Pri nákupe tovaru od {formatPrice(method.freeFrom)} zadarmo.</p>}
    </>
  );
}

/**
 * /doprava-a-platba: generated from the checkout's own shipping and payment
 * rules (GET /api/checkout/methods), so it never disagrees with the checkout.
 */
export default function ShippingPaymentPage() {
  useContentStyles();
  usePageMeta({
    title: 'Doprava a platba',
    description: 'Ceny dopravy podľa hmotnosti, paletová preprava, výdajné miesta, osobný odber a spôsoby platby.',
    canonical: shopPaths.shippingPayment(),
  });
  const list = useResource(resource('GET /api/checkout/methods'), { select: dataOf });
  const shippingName = (code: string) => list.data?.shipping.find((method) => method.code === code)?.name ?? code;

  return (
    <article className="cnt-page">
      <h1>Doprava a platba</h1>
      <p>Všetky ceny sú uvedené vrátane DPH. Cenu dopravy pre váš košík vidíte presne v pokladni.</p>
      {list.status === 'error' && <LoadFailed onRetry={list.reload}>Cenník sa nepodarilo načítať.</LoadFailed>}
      {list.data && (
        <>
          <h2>Doprava</h2>
          {list.data.shipping.map((method) => (
            <section
              key={method.code}
              className="cnt-method"
              data-testid={`shipping-${method.code}`}
              aria-labelledby={`shipping-${method.code}`}
            >
              <h3 id={`shipping-${method.code}`}>{method.name}</h3>
              <p>{method.description}</p>
              <ShippingPrice method={method} />
            </section>
          ))}
          <h2>Platba</h2>
          {list.data.payment.map((method) => (
            <section
              key={method.code}
              className="cnt-method"
              data-testid={`payment-${method.code}`}
              aria-labelledby={`payment-${method.code}`}
            >
              <h3 id={`payment-${method.code}`}>{method.name}</h3>
              <p>{method.description}</p>
              <p data-testid={`payment-price-${method.code}`}>{priceOrFree(method.price, 'bez poplatku')}</p>
              {method.onlyWith.length < list.data!.shipping.length && (
                <p>Len pri doprave: {method.onlyWith.map(shippingName).join(', ')}.</p>
              )}
            </section>
          ))}
          <p>Pri platbe v hotovosti (dobierka, platba na predajni) sa suma na úhradu zaokrúhľuje na 0,05 €.</p>
        </>
      )}
    </article>
  );
}
