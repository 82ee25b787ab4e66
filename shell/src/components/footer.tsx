import { Link, useConsentStore } from '@shop/shared-kernel';
import type { SiteData } from '@shop/shared-kernel/contract';
import { useSite } from '../app/site-data.ts';
import { cachedPart, footerKey } from './layout-html.ts';

/** The footer's site details (server-entry.tsx renders them once per site data: layout-html.ts). */
export function FooterDetails({ site }: { site: SiteData }) {
  return (
    <>
      <address>
        <strong>{site.name}</strong>
        <br />
        {site.address.street}, {site.address.zip} {site.address.city}
        <br />
        <a href={`tel:${site.phone.replace(/\s/g, '')}`}>{site.phone}</a> · <a href={`mailto:${site.email}`}>{site.email}</a>
      </address>
      <ul className="site-footer__links">
        {site.footerLinks.map((link) => (
          <li key={link.url}>
            <Link to={link.url}>{link.label}</Link>
          </li>
        ))}
      </ul>
      <p className="site-footer__company">
        {site.company.name} · IČO {site.company.ico} · DIČ {site.company.dic} · IČ DPH {site.company.icDph}
      </p>
    </>
  );
}

export function Footer() {
  const site = useSite();
  const openSettings = useConsentStore((state) => state.openSettings);
  const cached = site && cachedPart(() => footerKey(site));
  return (
    <footer className="site-footer" data-boundary="shell">
      {site &&
        (cached ? (
          <div className="site-footer__inner" {...cached} />
        ) : (
          <div className="site-footer__inner">
            <FooterDetails site={site} />
          </div>
        ))}
      <p className="site-footer__note">
        Všetky ceny sú uvedené vrátane DPH. ·{' '}
        <button type="button" className="footer-button" onClick={openSettings}>
          Nastavenia cookies
        </button>
      </p>
    </footer>
  );
}
