import type { Page } from '@playwright/test';

/** One layout shift the browser counted, with what moved: enough to name the cause when a test fails. */
export type LayoutShift = { value: number; at: number; moved: { node: string; from: number[]; to: number[] }[] };

/**
 * Records every layout shift of the page's documents from their first byte on (buffered), each
 * with the elements that moved and their boxes before and after. Returns a reader.
 */
export async function recordLayoutShifts(page: Page): Promise<() => Promise<LayoutShift[]>> {
  await page.addInitScript(() => {
    type Source = { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    const shifts: unknown[] = [];
    (window as unknown as { shopShifts: unknown[] }).shopShifts = shifts;
    const box = (rect: DOMRectReadOnly) => [rect.x, rect.y, rect.width, rect.height].map(Math.round);
    const describe = (node: Node | null) => {
      if (!node) return '(gone)';
      const element = node instanceof Element ? node : node.parentElement;
      const path: string[] = [];
      for (let at = element; at && path.length < 4; at = at.parentElement) {
        path.unshift(
          at.tagName.toLowerCase() + (at.className && typeof at.className === 'string' ? `.${at.className.split(' ').join('.')}` : ''),
        );
      }
      return `${path.join(' > ')} "${(node.textContent ?? '').trim().slice(0, 60)}"`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: Source[] })[]) {
        shifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          moved: (entry.sources ?? []).map((source) => ({
            node: describe(source.node),
            from: box(source.previousRect),
            to: box(source.currentRect),
          })),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { shopShifts: LayoutShift[] }).shopShifts);
}
