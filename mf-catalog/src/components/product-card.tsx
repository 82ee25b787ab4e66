import { useEffect } from 'react';
import { Link, bus } from '@shop/shared-kernel';
import { useFirstViewPicture } from '@shop/shared-kernel/react';
import { pictureAttributes, salePercent, variantCountText, commerceItem } from '@shop/shared-kernel/rules';
import { shopPaths, type ProductSummary } from '@shop/shared-kernel/contract';
import { Price, SaleBadge } from './price.tsx';

/**
 * How a card's picture loads: `lead`, the page's largest paint (the listing's first card), is fetched
 * first, ahead of everything but the HTML; `first`, the rest of the first row, at once but at the
 * browser's own priority, so it does not share the line with the lead's bytes; both are drawn in the
 * frame that shows the page (decoded with it, not in a frame after). `lazy`: as it comes near the screen.
 */
export type CardPicture = 'lead' | 'first' | 'lazy';

const PICTURE_LOADING = {
  lead: { fetchPriority: 'high', decoding: 'sync' },
  first: { fetchPriority: 'low', decoding: 'sync' },
  lazy: { loading: 'lazy' },
} as const;

export function ProductCard({ product, picture = 'lazy' }: { product: ProductSummary; picture?: CardPicture }) {
  return (
    <article className="cat-card" data-testid="product-card">
      <Link to={shopPaths.product(product.p_url)} className="cat-card__link">
        <img
          className="cat-card__image"
          {...pictureAttributes(product.p_image, 'card')}
          alt=""
          width={320}
          height={240}
          {...PICTURE_LOADING[picture]}
        />
        <div className="cat-card__body">
          <h3 className="cat-card__name">{product.p_name}</h3>
          {product.brand && <span className="cat-card__brand">{product.brand.b_name}</span>}
          <span className="cat-card__variants">{variantCountText(product.variantCount)}</span>
          <Price variant={product.variant} from={product.variantCount > 1} lowestPrice30={product.lowestPrice30} />
        </div>
      </Link>
      <SaleBadge percent={product.saleUpTo} upTo={product.variantCount > 1 && product.saleUpTo !== salePercent(product.variant)} />
    </article>
  );
}

/**
 * `firstRow`: how many cards open the page (a listing's first row on a phone); 0 for a grid further down
 * the page, whose pictures load as they come near the screen.
 */
export function ProductGrid({ products, label, firstRow = 0 }: { products: ProductSummary[]; label: string; firstRow?: number }) {
  // The first card's picture is the page's largest paint: the server's head asks for it, exactly as the card does.
  const lead = firstRow > 0 ? products[0] : undefined;
  useFirstViewPicture(lead ? pictureAttributes(lead.p_image, 'card') : null);
  // The rest of the page (analytics) learns which products the shopper was shown.
  useEffect(() => {
    if (products.length > 0) bus.emit('item:listed', { list: label, items: products.map((product) => commerceItem(product.variant)) });
  }, [products, label]);
  return (
    <ul className="cat-grid" aria-label={label}>
      {products.map((product, index) => (
        <li key={product.p_id}>
          <ProductCard product={product} picture={index >= firstRow ? 'lazy' : index === 0 ? 'lead' : 'first'} />
        </li>
      ))}
    </ul>
  );
}

/** Card-sized placeholders while the first page of a listing loads (same size, so nothing jumps). */
export function ProductGridPlaceholder({ count = 6 }: { count?: number }) {
  return (
    <ul className="cat-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index}>
          <div className="cat-card cat-card--placeholder">
            <div className="cat-card__image" />
            <div className="cat-card__body">
              <span className="cat-placeholder-line" />
              <span className="cat-placeholder-line cat-placeholder-line--short" />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
