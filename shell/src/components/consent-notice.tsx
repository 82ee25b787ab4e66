import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link, useConsentStore } from '@shop/shared-kernel';
import { CONSENT_NOTICE as TEXT } from '@shop/shared-kernel/rules';

function Settings() {
  const { choices, save, closeSettings } = useConsentStore();
  const [ga, setGa] = useState(choices?.cookie_ga ?? false);
  const [ads, setAds] = useState(choices?.cookie_ads ?? false);
  return (
    <form
      className="consent__settings"
      onSubmit={(event) => {
        event.preventDefault();
        save({ cookie_ga: ga, cookie_ads: ads });
      }}
    >
      <label className="consent__option">
        <input type="checkbox" checked disabled />
        <span>
          <strong>Technické cookies</strong> – nevyhnutné pre košík, prihlásenie a bezpečnosť. Nedajú sa vypnúť.
        </span>
      </label>
      <label className="consent__option">
        <input type="checkbox" name="cookie_ga" checked={ga} onChange={(event) => setGa(event.target.checked)} />
        <span>
          <strong>Analytické cookies</strong> – pomáhajú nám zlepšovať obchod podľa toho, ako ho používate.
        </span>
      </label>
      <label className="consent__option">
        <input type="checkbox" name="cookie_ads" checked={ads} onChange={(event) => setAds(event.target.checked)} />
        <span>
          <strong>Reklamné cookies</strong> – umožňujú zobrazovať vám relevantné ponuky.
        </span>
      </label>
      <div className="consent__actions">
        <button type="submit" className="button button--primary">
          Uložiť výber
        </button>
        <button type="button" className="button" onClick={closeSettings}>
          Zrušiť
        </button>
      </div>
    </form>
  );
}

/**
 * While the floating notice is up, the page keeps room below its content as tall as the notice,
 * so nothing a shopper must press (a checkout's continue button) can stay hidden under it. The
 * room is the body's own padding: a custom property on the root (as before) is inherited by
 * every element, and changing it restyled the whole page on a phone's main thread.
 */
function useReservedSpace(notice: RefObject<HTMLElement | null> | null) {
  useEffect(() => {
    const element = notice?.current;
    if (!element) return;
    const body = document.body;
    const reserve = (height: number) => (body.style.paddingBottom = `${Math.ceil(height) + 16}px`);
    const release = () => body.style.removeProperty('padding-bottom');
    // The observer reports the notice's height once laid out, and again on every change: asking
    // for it here would make the browser lay out the page inside the hydration's commit.
    // Until then the stylesheet keeps a generous room.
    if (typeof ResizeObserver === 'undefined') {
      reserve(element.getBoundingClientRect().height);
      return release;
    }
    const observer = new ResizeObserver(([entry]) => {
      if (entry) reserve(entry.borderBoxSize[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      release();
    };
  }, [notice]);
}

/**
 * The cookie notice (requirements R4.6). Floating at the bottom of the screen,
 * or plain and in the page flow on the privacy page.
 */
export function ConsentNotice({ plain }: { plain: boolean }) {
  const { acceptAll, rejectAll, settingsOpen, openSettings, closeSettings } = useConsentStore();
  const titleId = useId();
  const notice = useRef<HTMLElement>(null);
  useReservedSpace(plain ? null : notice);
  return (
    <section
      ref={notice}
      onKeyDown={(event) => {
        // Escape leaves the settings without saving (the notice itself needs an answer).
        if (event.key === 'Escape' && settingsOpen) closeSettings();
      }}
      className={plain ? 'consent consent--plain' : 'consent consent--floating'}
      role={plain ? 'region' : 'dialog'}
      aria-labelledby={titleId}
      data-testid="consent"
    >
      <h2 id={titleId} className="consent__title">
        {TEXT.title}
      </h2>
      <p>
        {TEXT.body} {TEXT.moreIn} <Link to={TEXT.privacyPath}>{TEXT.privacyLink}</Link>.
      </p>
      {settingsOpen ? (
        <Settings />
      ) : (
        <div className="consent__actions">
          <button type="button" className="button button--primary" onClick={acceptAll}>
            {TEXT.acceptAll}
          </button>
          <button type="button" className="button button--primary" onClick={rejectAll}>
            {TEXT.rejectAll}
          </button>
          <button type="button" className="button" onClick={openSettings}>
            {TEXT.settings}
          </button>
        </div>
      )}
    </section>
  );
}
