import type { Page } from '@playwright/test';

/** "1 234,50 €" → 123450 (cents). */
export function cents(text: string): number {
  const normalized = text
    .replace(/[\s\u00a0\u202f€]/g, '')
    .replace('od', '')
    .replace(',', '.');
  return Math.round(Number(normalized) * 100);
}

/**
 * Installs a stand-in for the React DevTools hook before any script runs:
 * every React renderer (react-dom copy) that starts registers itself there.
 */
export async function countReactRenderers(page: Page) {
  await page.addInitScript(() => {
    const renderers: unknown[] = [];
    Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      configurable: true,
      value: {
        renderers: new Map(),
        supportsFiber: true,
        isDisabled: false,
        inject(renderer: unknown) {
          renderers.push(renderer);
          return renderers.length;
        },
        checkDCE() {},
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        onScheduleFiberRoot() {},
      },
    });
    (window as unknown as { __rendererCount: () => number }).__rendererCount = () => renderers.length;
  });
  return () => page.evaluate(() => (window as unknown as { __rendererCount: () => number }).__rendererCount());
}

/** What /builds/latest.json answers (the kernel contract's public registry). */
export type { PublicRegistry as Registry } from '../../shared-kernel/src/contract/registry.ts';
