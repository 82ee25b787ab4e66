import { describe, expect, it } from 'vitest';
import { useConsentStore } from './consent-store.ts';

describe('useConsentStore without a document', () => {
  it('starts undecided and can still decide in memory', () => {
    expect(useConsentStore.getState()).toMatchObject({ choices: null, noticeVisible: true });
    useConsentStore.getState().rejectAll();
    expect(useConsentStore.getState().choices).toEqual({ cookie_required: true, cookie_ga: false, cookie_ads: false });
  });
});
