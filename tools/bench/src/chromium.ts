/** Debian's Chromium with the flags this machine needs; never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The consent cookies of a shopper who decided (technical cookies only), as the shell sets them. */
export function decidedCookies(url: string) {
  const { hostname } = new URL(url);
  return (['cookie_required', 'cookie_ga', 'cookie_ads'] as const).map((name) => ({
    name,
    value: name === 'cookie_required' ? 'true' : 'false',
    domain: hostname,
    path: '/',
    sameSite: 'Lax' as const,
  }));
}
