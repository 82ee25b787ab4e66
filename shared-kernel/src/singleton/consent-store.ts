/**
 * Cookie consent (requirements R3.8, R4.6). Choices live in three cookies,
 * cookie_required / cookie_ga / cookie_ads = "true" | "false", for one year,
 * path=/, SameSite=Lax. The notice shows until cookie_required is set.
 * Technical cookies cannot be switched off, so cookie_required is always
 * saved as true.
 */
import { create } from 'zustand';
import type { ConsentChoices } from '../contract/index.ts';
import { bus } from './event-bus.ts';

import { CONSENT_COOKIE_MAX_AGE_S, consentCookieStrings, parseConsentCookies } from '../rules/consent-rules.ts';

export { CONSENT_COOKIE_MAX_AGE_S, parseConsentCookies };

export type ConsentStore = {
  /** Null until the shopper decided (cookie_required not set). */
  choices: ConsentChoices | null;
  noticeVisible: boolean;
  /** The detailed settings dialog (opened from the notice or the footer link). */
  settingsOpen: boolean;
  /** All three true. */
  acceptAll: () => void;
  /** Required true, analytics and advertising false. */
  rejectAll: () => void;
  /** Detailed settings: required always true, unset values false. */
  save: (partial: { cookie_ga?: boolean; cookie_ads?: boolean }) => void;
  openSettings: () => void;
  closeSettings: () => void;
  /** Re-reads the cookies (e.g. after another tab decided). */
  reload: () => void;
};

function readChoices(): ConsentChoices | null {
  if (typeof document === 'undefined') return null;
  return parseConsentCookies(document.cookie);
}

function writeChoices(choices: ConsentChoices): void {
  if (typeof document === 'undefined') return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  for (const cookie of consentCookieStrings(choices, { secure })) document.cookie = cookie;
}

export const useConsentStore = create<ConsentStore>()((set) => {
  const decide = (choices: ConsentChoices) => {
    writeChoices(choices);
    set({ choices, noticeVisible: false, settingsOpen: false });
    bus.emit('consent:changed', choices);
  };
  const initial = readChoices();

  return {
    choices: initial,
    noticeVisible: initial === null,
    settingsOpen: false,
    acceptAll: () => decide({ cookie_required: true, cookie_ga: true, cookie_ads: true }),
    rejectAll: () => decide({ cookie_required: true, cookie_ga: false, cookie_ads: false }),
    save: (partial) =>
      decide({
        cookie_required: true,
        cookie_ga: partial.cookie_ga === true,
        cookie_ads: partial.cookie_ads === true,
      }),
    openSettings: () => set({ settingsOpen: true }),
    closeSettings: () => set({ settingsOpen: false }),
    reload: () => {
      const choices = readChoices();
      set({ choices, noticeVisible: choices === null });
    },
  };
});
