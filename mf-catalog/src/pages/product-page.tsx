import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, basePrice, formatPrice, salePercent, usePageMeta, useResource, type ProductDetail } from '@shop/shared-kernel';
import { Breadcrumbs } from '../components/breadcrumbs.tsx';
import { Price, SaleBadge } from '../components/price.tsx';
import { AttributeTable } from '../components/attribute-table.tsx';
import { AddToBasket } from '../components/add-to-basket.tsx';
import { availabilityText, VariantSelector } from '../components/variant-selector.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';

function firstAvailable(product: ProductDetail): number {
  return (product.variants.find((variant) => variant.v_availability !== 'unavailable') ?? product.variants[0])?.v_id ?? 0;
}

function ProductView({ product }: { product: ProductDetail }) {
  const [selected, setSelected] = useState(() => firstAvailable(product));
  const variant = product.variants.find((candidate) => candidate.v_id === selected) ?? product.variants[0];
  if (!variant) return <p>Produkt nemá žiadny variant.</p>;
  const unitPrice = basePrice(variant);
  return (
    <article className="cat-product">
      <div className="cat-product__gallery" style={{ position: 'relative' }}>
        <img src={product.p_images[0] ?? variant.p_image} alt={product.p_name} width={640} height={480} />
        <SaleBadge variant={variant} />
      </div>
      <div className="cat-product__buy">
        <h1>{product.p_name}</h1>
        {product.brand && (
          <p>
            Značka: <Link to={`/b/${product.brand.b_url}`}>{product.brand.b_name}</Link>
          </p>
        )}
        {product.variants.length > 1 && (
          <VariantSelector variants={product.variants} selected={variant.v_id} onSelect={setSelected} />
        )}
        <div>
          <Price variant={variant} />
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
        <p className={`cat-availability--${variant.v_availability}`}>{availabilityText[variant.v_availability]}</p>
        <AddToBasket variant={variant} key={variant.v_id} />
      </div>
      <div className="cat-product__details">
        <h2>Popis</h2>
        <p>{product.p_description}</p>
        <h2>Technické parametre</h2>
        <AttributeTable attributes={product.attributes} />
      </div>
    </article>
  );
}

export default function ProductPage() {
  useCatalogStyles();
  const url = useParams().product ?? '';
  const product = useResource(`product:${url}`, () => api.product(url).then((answer) => answer.data));
  usePageMeta({
    title: product.data?.p_name ?? null,
    description: product.data?.p_description.slice(0, 155),
    canonical: `/p/${url}`,
  });
  if (product.status === 'error') {
    return (
      <div className="cat-empty" role="alert">
        <p>Produkt sa nepodarilo načítať.</p>
        <button type="button" className="button" onClick={product.reload}>Skúsiť znova</button>
      </div>
    );
  }
  if (!product.data) return <div className="page-skeleton" aria-busy="true" />;
  return (
    <>
      <Breadcrumbs items={product.data.breadcrumbs} />
      <ProductView product={product.data} key={product.data.p_id} />
    </>
  );
}
