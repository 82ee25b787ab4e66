import { resource } from '@shop/shared-kernel';
import { OPENING_DAYS, OPENING_HOURS, OPENING_HOURS_SUMMARY, openingHoursText } from '@shop/shared-kernel/rules';
import { dataOf, useJsonLd, usePublicOrigin, useResource } from '@shop/shared-kernel/react';
import { PageContent } from '../components/page-content.tsx';
import { ContactForm } from '../components/contact-form.tsx';
import { useContentStyles } from '../use-content-styles.ts';

/** /s/kontakt: the shop's address and hours (the header's rule), and the contact form. */
export default function ContactPage() {
  useContentStyles();
  const site = useResource(resource('GET /api/site'), { select: dataOf });
  const data = site.data;
  const origin = usePublicOrigin();
  useJsonLd(
    'organization',
    data
      ? {
          '@type': 'HardwareStore',
          name: data.name,
          legalName: data.company.name,
          taxID: data.company.dic,
          vatID: data.company.icDph,
          telephone: data.phone,
          email: data.email,
          url: origin,
          address: {
            '@type': 'PostalAddress',
            streetAddress: data.address.street,
            addressLocality: data.address.city,
            postalCode: data.address.zip,
            addressCountry: 'SK',
          },
          openingHoursSpecification: {
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: [...OPENING_DAYS],
            opens: OPENING_HOURS.open,
            closes: OPENING_HOURS.close,
          },
        }
      : null,
  );
  return (
    <PageContent slug="kontakt">
      <section className="cnt-hours" aria-labelledby="contact-hours">
        <h2 id="contact-hours">Otváracie hodiny</h2>
        <p>
          {OPENING_HOURS_SUMMARY}. <strong>{openingHoursText(new Date())}.</strong>
        </p>
      </section>
      <ContactForm />
    </PageContent>
  );
}
