import { Link, resource } from '@shop/shared-kernel';
import { formatDate } from '@shop/shared-kernel/rules';
import { dataOf, LoadFailed, usePageMeta, useResource, SHOP_NAME } from '@shop/shared-kernel/react';
import { ProductGrid } from '../components/product-card.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

export default function HomePage() {
  useCatalogStyles();
  usePageMeta({
    title: SHOP_NAME,
    description: 'Stavebný materiál, izolácie, suché stavby, farby a náradie za výhodné ceny s doručením po Slovensku.',
    canonical: '/',
  });
  const home = useResource(resource('GET /api/home'), { select: dataOf });
  // Latest articles from the content API; the home page works without them (a failure shows none).
  const posts = useResource(resource('GET /api/blog', { query: { page: 1 } }), { select: (answer) => answer.data.slice(0, 3) });

  return (
    <div className="cat-home">
      <h1>Všetko pre vašu stavbu na jednom mieste</h1>
      {home.status === 'error' && (
        <LoadFailed className="cat-empty" onRetry={home.reload}>
          Ponuku sa nepodarilo načítať.
        </LoadFailed>
      )}
      {home.data && (
        <>
          <section className="cat-section" aria-labelledby="home-categories">
            <h2 id="home-categories">Kategórie</h2>
            <ul className="cat-tiles">
              {home.data.categories.map((category) => (
                <li key={category.cat_id}>
                  <Link to={shopPaths.category(category.cat_url)}>{category.cat_name}</Link>
                </li>
              ))}
            </ul>
          </section>
          <section className="cat-section" aria-labelledby="home-sale">
            <h2 id="home-sale">Výpredaj</h2>
            <ProductGrid products={home.data.sale} label="Produkty vo výpredaji" />
            <p>
              <Link to={shopPaths.sale()}>Celý výpredaj</Link>
            </p>
          </section>
          <section className="cat-section" aria-labelledby="home-newest">
            <h2 id="home-newest">Novinky</h2>
            <ProductGrid products={home.data.newest} label="Nové produkty" />
          </section>
          <section className="cat-section" aria-labelledby="home-brands">
            <h2 id="home-brands">Značky</h2>
            <ul className="cat-brands">
              {home.data.brands.map((brand) => (
                <li key={brand.b_id}>
                  <Link to={shopPaths.brand(brand.b_url)}>{brand.b_name}</Link>
                </li>
              ))}
            </ul>
          </section>
          {posts.data && posts.data.length > 0 && (
            <section className="cat-section" aria-labelledby="home-blog">
              <h2 id="home-blog">Z blogu</h2>
              <ul className="cat-tiles cat-posts">
                {posts.data.map((post) => (
                  <li key={post.slug}>
                    <Link to={shopPaths.blogPost(post.slug)}>
                      <span className="cat-posts__text">
                        {post.title}
                        <small className="cat-muted">{formatDate(post.publishedAt)}</small>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
              <p>
                <Link to={shopPaths.blog()}>Všetky články</Link>
              </p>
            </section>
          )}
        </>
      )}
    </div>
  );
}
