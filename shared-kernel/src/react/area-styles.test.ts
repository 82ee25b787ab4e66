// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { injectAreaStyles } from './area-styles.ts';

describe('injectAreaStyles', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
    delete (document as unknown as Record<symbol, unknown>)[Symbol.for('@shop/shared-kernel/area-styles')];
  });
  it('adds one style element per area', () => {
    injectAreaStyles('catalog', '.tile{color:red}');
    injectAreaStyles('catalog', '.tile{color:blue}');
    injectAreaStyles('checkout', '.cart{}');
    const styles = document.head.querySelectorAll('style[data-area]');
    expect(styles).toHaveLength(2);
    expect(styles[0]?.getAttribute('data-area')).toBe('catalog');
    expect(styles[0]?.textContent).toBe('.tile{color:red}');
    expect(styles[1]?.getAttribute('data-area')).toBe('checkout');
  });
  it('handles area names with quotes', () => {
    injectAreaStyles('we"ird', 'a{}');
    injectAreaStyles('we"ird', 'a{}');
    expect(document.head.querySelectorAll('style')).toHaveLength(1);
  });
});

describe('injectAreaStyles where the browser constructs stylesheets (every current one)', () => {
  const sheets: { css: string }[] = [];
  beforeEach(() => {
    document.head.innerHTML = '';
    delete (document as unknown as Record<symbol, unknown>)[Symbol.for('@shop/shared-kernel/area-styles')];
    sheets.length = 0;
    // jsdom has no constructed stylesheets: a stand-in with the browser's shape.
    class Sheet {
      css = '';
      replaceSync(css: string) {
        this.css = css;
      }
    }
    Object.assign(globalThis, { CSSStyleSheet: Sheet });
    Object.defineProperty(document, 'adoptedStyleSheets', {
      configurable: true,
      get: () => [...sheets],
      set: (value: { css: string }[]) => sheets.splice(0, sheets.length, ...value),
    });
  });
  afterEach(() => {
    delete (document as unknown as Record<string, unknown>).adoptedStyleSheets;
  });

  it('adopts one sheet per area and adds no <style> element, which the policy would refuse', () => {
    injectAreaStyles('catalog', '.tile{color:red}');
    injectAreaStyles('catalog', '.tile{color:blue}');
    injectAreaStyles('checkout', '.cart{}');
    expect(sheets.map((sheet) => sheet.css)).toEqual(['.tile{color:red}', '.cart{}']);
    expect(document.head.querySelectorAll('style')).toHaveLength(0);
  });

  it("adds nothing for an area whose styles the server put in the page's head", () => {
    document.head.innerHTML = '<style data-area="content">.post{}</style>';
    injectAreaStyles('content', '.post{}');
    expect(sheets).toEqual([]);
  });
});
