import { Link } from '@shop/shared-kernel';
import { shopPaths } from '@shop/shared-kernel/contract';

const STEPS = [
  { path: shopPaths.cart(), label: 'Košík' },
  { path: shopPaths.checkoutContact(), label: 'Kontaktné údaje' },
  { path: shopPaths.checkoutOrder(), label: 'Doprava a platba' },
] as const;

/** Where the shopper is in the checkout; earlier steps are links back. */
export function CheckoutSteps({ current }: { current: 0 | 1 | 2 }) {
  return (
    <nav aria-label="Kroky objednávky">
      <ol className="chk-steps">
        {STEPS.map((step, i) => (
          <li
            key={step.path}
            className={i === current ? 'chk-steps__current' : undefined}
            aria-current={i === current ? 'step' : undefined}
          >
            {i < current ? (
              <Link to={step.path}>
                {i + 1}. {step.label}
              </Link>
            ) : (
              <span>
                {i + 1}. {step.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
