// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsEnabled } from '../rules/consent-rules.ts';
import { parseConsentCookies, useConsentStore } from './consent-store.ts';
import { bus } from './event-bus.ts';

function clearCookies() {
  for (const name of ['cookie_required', 'cookie_ga', 'cookie_ads']) {
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

const consent = () => useConsentStore.getState();

beforeEach(() => {
  clearCookies();
  consent().reload();
  useConsentStore.setState({ settingsOpen: false });
});

describe('parseConsentCookies', () => {
  it('is null until cookie_required is set', () => {
    expect(parseConsentCookies('')).toBeNull();
    expect(parseConsentCookies('cookie_ga=true; other=1')).toBeNull();
  });
  it('reads "true"/"false" values, missing ones are false', () => {
    expect(parseConsentCookies('cookie_required=true; cookie_ga=true; cookie_ads=false')).toEqual({
      cookie_required: true,
      cookie_ga: true,
      cookie_ads: false,
    });
    expect(parseConsentCookies('a=b;cookie_required=true')).toEqual({
      cookie_required: true,
      cookie_ga: false,
      cookie_ads: false,
    });
  });
});

describe('useConsentStore', () => {
  it('shows the notice while cookie_required is not set', () => {
    expect(consent()).toMatchObject({ choices: null, noticeVisible: true, settingsOpen: false });
  });

  it('acceptAll sets all three true, hides the notice and emits consent:changed', () => {
    const events = vi.fn();
    bus.on('consent:changed', events);
    consent().acceptAll();
    const all = { cookie_required: true, cookie_ga: true, cookie_ads: true };
    expect(consent()).toMatchObject({ choices: all, noticeVisible: false });
    expect(parseConsentCookies(document.cookie)).toEqual(all);
    expect(events).toHaveBeenCalledWith(all);
    bus.off('consent:changed', events);
  });

  it('rejectAll sets required true and the others false', () => {
    consent().rejectAll();
    const rejected = { cookie_required: true, cookie_ga: false, cookie_ads: false };
    expect(consent().choices).toEqual(rejected);
    expect(document.cookie).toContain('cookie_required=true');
    expect(document.cookie).toContain('cookie_ga=false');
    expect(document.cookie).toContain('cookie_ads=false');
    expect(consent().noticeVisible).toBe(false);
  });

  it('save keeps required true and turns unset values false', () => {
    consent().openSettings();
    expect(consent().settingsOpen).toBe(true);
    consent().save({ cookie_ga: true });
    expect(consent().choices).toEqual({ cookie_required: true, cookie_ga: true, cookie_ads: false });
    expect(consent().settingsOpen).toBe(false);
    consent().save({ cookie_ads: true });
    expect(consent().choices).toEqual({ cookie_required: true, cookie_ga: false, cookie_ads: true });
    consent().save({});
    expect(consent().choices).toEqual({ cookie_required: true, cookie_ga: false, cookie_ads: false });
  });

  it('writes cookies for one year, path=/, SameSite=Lax', () => {
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor?.get?.call(document),
      set: (value: string) => {
        written.push(value);
        descriptor?.set?.call(document, value);
      },
    });
    try {
      consent().acceptAll();
    } finally {
      delete (document as unknown as Record<string, unknown>).cookie;
    }
    expect(written).toHaveLength(3);
    for (const [i, name] of ['cookie_required', 'cookie_ga', 'cookie_ads'].entries()) {
      expect(written[i]).toMatch(new RegExp(`^${name}=true; Max-Age=31536000; Expires=[^;]+; Path=/; SameSite=Lax$`));
    }
  });

  it('openSettings and closeSettings toggle the dialog for the footer link', () => {
    consent().acceptAll();
    consent().openSettings();
    expect(consent()).toMatchObject({ settingsOpen: true, noticeVisible: false });
    consent().closeSettings();
    expect(consent().settingsOpen).toBe(false);
  });

  it('reload reads existing cookies', () => {
    document.cookie = 'cookie_required=true; Path=/';
    document.cookie = 'cookie_ads=true; Path=/';
    consent().reload();
    expect(consent()).toMatchObject({
      choices: { cookie_required: true, cookie_ga: false, cookie_ads: true },
      noticeVisible: false,
    });
  });
});

describe('analyticsEnabled', () => {
  const on = { cookie_required: true, cookie_ga: true, cookie_ads: false };
  const off = { cookie_required: true, cookie_ga: false, cookie_ads: true };

  // Routes as the route table has them: the operator's generate and pdf are declared without consent.
  const home = { name: 'home' };
  const generate = { name: 'generate', noConsent: true };
  const pdf = { name: 'pdf', noConsent: true };

  it('follows the analytics flag', () => {
    expect(analyticsEnabled(on, home)).toBe(true);
    expect(analyticsEnabled(off, home)).toBe(false);
    expect(analyticsEnabled(null, home)).toBe(false);
    expect(analyticsEnabled(on, undefined)).toBe(true);
  });
  it('is always off on generate and pdf', () => {
    expect(analyticsEnabled(on, generate)).toBe(false);
    expect(analyticsEnabled(on, pdf)).toBe(false);
  });
});
