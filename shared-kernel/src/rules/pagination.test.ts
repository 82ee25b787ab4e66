import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, PAGINATION_WINDOW, pageCount, pageHref, paginate, withoutPageQuery } from './pagination.ts';

describe('constants', () => {
  it('hold the required values', () => {
    expect(PAGE_SIZE).toBe(15);
    expect(PAGINATION_WINDOW).toBe(2);
  });
});

describe('pageCount', () => {
  it('divides by 15 rounding up', () => {
    expect(pageCount(15)).toBe(1);
    expect(pageCount(16)).toBe(2);
    expect(pageCount(45)).toBe(3);
    expect(pageCount(46)).toBe(4);
  });
  it('is at least 1', () => {
    expect(pageCount(0)).toBe(1);
  });
  it('honours a custom page size', () => {
    expect(pageCount(25, 10)).toBe(3);
  });
});

describe('paginate', () => {
  it('page 9 of 3 resets to 1', () => {
    expect(paginate(9, 45)).toEqual({
      page: 1,
      pageCount: 3,
      pages: [1, 2, 3],
      prev: null,
      next: 2,
      reset: true,
    });
  });
  it('shows the current page ± 2', () => {
    expect(paginate(5, 150)).toEqual({
      page: 5,
      pageCount: 10,
      pages: [3, 4, 5, 6, 7],
      prev: 4,
      next: 6,
      reset: false,
    });
  });
  it('clips the window at the edges', () => {
    expect(paginate(1, 150).pages).toEqual([1, 2, 3]);
    expect(paginate(2, 150).pages).toEqual([1, 2, 3, 4]);
    expect(paginate(10, 150).pages).toEqual([8, 9, 10]);
    expect(paginate(10, 150).next).toBeNull();
    expect(paginate(10, 150).prev).toBe(9);
  });
  it('one page has neither prev nor next', () => {
    expect(paginate(1, 3)).toEqual({ page: 1, pageCount: 1, pages: [1], prev: null, next: null, reset: false });
    expect(paginate(1, 0).reset).toBe(false);
  });
  it('the last valid page does not reset', () => {
    expect(paginate(3, 45)).toMatchObject({ page: 3, reset: false, next: null, prev: 2 });
  });
  it('resets a page below 1 or not an integer', () => {
    expect(paginate(0, 45)).toMatchObject({ page: 1, reset: true });
    expect(paginate(-2, 45)).toMatchObject({ page: 1, reset: true });
    expect(paginate(1.5, 45)).toMatchObject({ page: 1, reset: true });
    expect(paginate(Number.NaN, 45)).toMatchObject({ page: 1, reset: true });
  });
});

describe('pageHref', () => {
  it('sets the page query and keeps other parameters', () => {
    expect(pageHref('/c/cement', '?sort=price-asc', 3)).toBe('/c/cement?sort=price-asc&page=3');
    expect(pageHref('/c/cement', '?page=2&sort=name', 4)).toBe('/c/cement?page=4&sort=name');
    expect(pageHref('/vypredaj', '', 2)).toBe('/vypredaj?page=2');
  });
  it('drops the page query for page 1', () => {
    expect(pageHref('/c/cement', '?page=3&sort=name', 1)).toBe('/c/cement?sort=name');
    expect(pageHref('/c/cement', '?page=3', 1)).toBe('/c/cement');
  });
});

describe('withoutPageQuery', () => {
  it('removes only the page parameter', () => {
    expect(withoutPageQuery('?page=9&sort=name')).toBe('?sort=name');
    expect(withoutPageQuery('?page=9')).toBe('');
    expect(withoutPageQuery('')).toBe('');
    expect(withoutPageQuery('sort=name')).toBe('?sort=name');
  });
});
