// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { injectAreaStyles } from './area-styles.ts';

describe('injectAreaStyles', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
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
