import { Link, useConsentStore } from '@shop/shared-kernel';
import { useSite } from '../app/site-data.ts';

export function Footer() {
  const site = useSite();
  const openSettings = useConsentStore((state) => state.openSettings);
  return (
    <footer className="site-footer" data-boundary="shell">
      {site && (
        <div className="site-footer__inner">
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
        </div>
      )}
      <p className="site-footer__note">
        Všetky ceny sú uvedené vrátane DPH. ·{' '}
        <button type="button" className="footer-button" onClick={openSettings}>
          Nastavenia cookies
        </button>
      </p>
    </footer>
  );
}
