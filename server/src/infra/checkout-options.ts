/**
 * The shop's settings as an API is built with them (BuildApiOptions.checkout; tests spread
 * `defaultCheckoutOptions`). The API hands them to its domains under their own names (ApiDeps:
 * `publicUrl`, `gateway`, `mail`, `iban`), never as this one bag.
 */
export type CheckoutOptions = {
  /** Where .eml files go when no SMTP server is configured. */
  outboxDir: string;
  /** Where the operator's invoice copies go when no file store is given. */
  invoiceDir: string;
  /** SMTP connection URL (smtp://user:pass@host:port); null: write to the outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  gateway: {
    /** Base URL of the card payment gateway; null: card payments are unavailable. */
    url: string | null;
    /** Shared HMAC-SHA256 secret for requests and notifications. */
    secret: string;
  };
  /** The shop's public origin for links and the gateway's return URL, e.g. http://localhost:3000 (configuration, never the request's). */
  publicUrl: string;
  /** Where the gateway sends notifications; default: this API's own listen address. */
  notifyUrl: string | null;
  /** Bank account for transfers (PAY by square). */
  iban: string;
};

/** The card gateway as orders and payments talk to it: its address, the shared secret, and where it notifies. */
export type CardGateway = CheckoutOptions['gateway'] & {
  /** Where the gateway sends notifications; null: this API's own listen address. */
  notifyUrl: string | null;
};

/** How the shop's e-mail leaves: over SMTP, or as .eml files in a folder; and who sends it. */
export type MailSettings = {
  /** SMTP connection URL; null: .eml files in `outboxDir`. */
  smtpUrl: string | null;
  /** The sender (MAIL_FROM). */
  from: string;
  outboxDir: string;
};

/** A sample Slovak IBAN (the bysquare documentation's) unless SHOP_IBAN is set. */
export const DEFAULT_IBAN = 'SK9611000000002918599669';

/** Options for an API built without them (tests of other domains): outbox in the temp folder, no card gateway. */
export function defaultCheckoutOptions(tmpDir: string): CheckoutOptions {
  return {
    outboxDir: `${tmpDir}/outbox`,
    invoiceDir: `${tmpDir}/invoices`,
    smtpUrl: null,
    mailFrom: 'Stavebniny Domov <obchod@example.sk>',
    gateway: { url: null, secret: 'unused-gateway-secret' },
    publicUrl: 'http://localhost:3000',
    notifyUrl: null,
    iban: DEFAULT_IBAN,
  };
}
