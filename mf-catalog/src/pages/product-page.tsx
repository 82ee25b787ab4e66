import { useEffect, useState } from 'react';
import { Link, useParams, resource, bus } from '@shop/shared-kernel';
import { basePrice, formatPrice, salePercent, commerceItem } from '@shop/shared-kernel/rules';
import { dataOf, LoadFailed, useJsonLd, usePageMeta, usePublicOrigin, useResource } from '@shop/shared-kernel/react';
import { shopPaths, type ProductDetail } from '@shop/shared-kernel/contract';
import { Breadcrumbs } from '../components/breadcrumbs.tsx';
import { Price, SaleBadge } from '../components/price.tsx';
import { AttributeTable } from '../components/attribute-table.tsx';
import { AddToBasket } from '../components/add-to-basket.tsx';
import { AccessoryList } from '../components/accessory-list.tsx';
import { Gallery } from '../components/gallery.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { availabilityText, VariantSelector } from '../components/variant-selector.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';
import { breadcrumbJsonLd, productJsonLd } from '../structured-data.ts';

function firstAvailable(product: ProductDetail): number {
  return (product.variants.find((variant) => variant.v_availability !== 'unavailable') ?? product.variants[0])?.v_id ?? 0;
}

function ProductView({ product }: { product: ProductDetail }) {
  const [selected, setSelected] = useState(() => firstAvailable(product));
  const variant = product.variants.find((candidate) => candidate.v_id === selected) ?? product.variants[0];
  useEffect(() => {
    if (variant) bus.emit('item:viewed', { item: commerceItem(variant) });
  }, [variant]);
  if (!variant) return <p className="cat-empty">Produkt momentálne nemá žiadny variant na predaj.</p>;
  const unitPrice = basePrice(variant);
  const lowest = product.lowestPrices.find((entry) => entry.v_id === variant.v_id)?.price ?? null;
  return (
    <>
      <article className="cat-product">
        <Gallery images={product.p_images.length > 0 ? product.p_images : [variant.p_image]} name={product.p_name}>
          <SaleBadge percent={salePercent(variant)} />
        </Gallery>
        <div className="cat-product__buy">
          <h1>{product.p_name}</h1>
          {product.brand && (
            <p>
              Značka: <Link to={shopPaths.brand(product.brand.b_url)}>{product.brand.b_name}</Link>
            </p>
          )}
          {product.variants.length > 1 && <VariantSelector variants={product.variants} selected={variant.v_id} onSelect={setSelected} />}
          <div>
            <Price variant={variant} lowestPrice30={lowest} />
            <p className="cat-price__vat">
              Cena za {variant.v_unit} vrátane {variant.v_vat} % DPH
              {salePercent(variant) > 0 ? ` · zľava ${salePercent(variant)} %` : ''}
            </p>
            {unitPrice && (
              <p className="cat-unit-price" data-testid="unit-price">
                {formatPrice(unitPrice.price)} / {unitPrice.unit}
              </p>
            )}
          </div>
          <p className={`cat-availability--${variant.v_availability}`} data-testid="availability">
            {availabilityText[variant.v_availability]}
          </p>
          <AccessoryList accessories={product.accessories} />
          <AddToBasket variant={variant} accessories={product.accessories} key={variant.v_id} />
        </div>
        <div className="cat-product__details">
          <h2>Popis</h2>
          <p>{product.p_description}</p>
          <h2>Technické parametre</h2>
          <AttributeTable attributes={product.attributes} />
        </div>
      </article>
      {product.related.length > 0 && (
        <section className="cat-section" aria-labelledby="related-heading">
          <h2 id="related-heading">Podobné produkty</h2>
          <ProductGrid products={product.related} label="Podobné produkty" />
        </section>
      )}
    </>
  );
}

function ProductSkeleton() {
  return (
    <div className="cat-product" aria-busy="true">
      <span className="visually-hidden">Načítavam produkt…</span>
      <div className="cat-gallery__main cat-placeholder-box" />
      <div className="cat-product__buy">
        <span className="cat-placeholder-line" />
        <span className="cat-placeholder-line cat-placeholder-line--short" />
      </div>
    </div>
  );
}

export default function ProductPage() {
  useCatalogStyles();
  const url = useParams().product ?? '';
  const product = useResource(resource('GET /api/product/:url', { params: { url } }), { select: dataOf });
  usePageMeta({
    title: product.data?.p_name ?? null,
    description: product.data
      ? `${product.data.p_name}${product.data.brand ? ` (${product.data.brand.b_name})` : ''} – ${product.data.p_description}`.slice(0, 155)
      : undefined,
    canonical: shopPaths.product(url),
    image: product.data?.p_images[0] ?? null,
  });
  const origin = usePublicOrigin();
  useJsonLd('product', product.data ? productJsonLd(product.data, origin) : null);
  useJsonLd('breadcrumbs', product.data ? breadcrumbJsonLd(product.data.breadcrumbs, origin) : null);
  if (product.status === 'error') {
    return (
      <LoadFailed className="cat-empty" onRetry={product.reload}>
        Produkt sa nepodarilo načítať. Skontrolujte pripojenie a skúste to znova.
      </LoadFailed>
    );
  }
  if (!product.data) return <ProductSkeleton />;
  return (
    <>
      <Breadcrumbs items={product.data.breadcrumbs} />
      <ProductView product={product.data} key={product.data.p_id} />
    </>
  );
}
