/**
 * The server's settings, read once from the environment with config.ts's readers and named for what
 * they are; the composition root (shop.ts) hands each part the ones it uses. A start the shop must
 * refuse (a private release key handed to the server, no card gateway) is a StartRefused whose
 * message is printed as it is. And the server's own lines at its start.
 */
import { canaryPolicyFrom, PRIVATE_KEY_VARIABLES, type CanaryPolicy } from '@shop/release';
import { readCheckoutConfig, readServerConfig, type ServerConfig } from './config.ts';
import type { MailSettings } from './infra/checkout-options.ts';
import { commercePolicyFrom, type CommercePolicy } from './domains/releases/commerce-judge.ts';

export type ShopSettings = {
  /** Where and how this process serves (config.ts): host, ports, folders, role, standby, renderers, limits. */
  server: ServerConfig;
  /** The shop's public origin (PUBLIC_URL; default this server's address). */
  publicUrl: string;
  /** The card gateway's address (GATEWAY_URL; its secret is read with the data directory). */
  gatewayUrl: string;
  /** The shop's e-mail: SMTP_URL, else .eml files in OUTBOX_DIR; the sender MAIL_FROM. */
  mail: MailSettings;
  /** The shop's bank account (SHOP_IBAN). */
  iban: string;
  /** Where invoice copies go without a file store bucket (<DATA_DIR>/invoices). */
  invoiceDir: string;
  /** When the canary watch aborts or promotes a canary (CANARY_*). */
  canaryPolicy: Required<CanaryPolicy>;
  /** When the commerce guardrail aborts a checkout canary (CANARY_MIN_ORDER_VISITS, CANARY_ORDER_DROP). */
  commercePolicy: CommercePolicy;
  /**
   * The environment, for what is read where it is used: the secrets (with the data directory), the
   * release storage and the file store (S3_*), backups (BACKUP_*), the integrity watch (INTEGRITY_*).
   */
  env: NodeJS.ProcessEnv;
};

/** A start the shop refuses, with the message that says why and what to do. */
export class StartRefused extends Error {}

/** Why the server does not start without GATEWAY_URL: it never starts the simulator itself. */
const NO_GATEWAY = [
  "[server] GATEWAY_URL is not set: the server needs the card gateway's address (and its secret, GATEWAY_SECRET or <DATA_DIR>/gateway-secret).",
  "  In production: the payment provider's gateway.",
  '  For development: `npm start` (and the cluster, end-to-end and benchmark launchers) start the gateway simulator',
  '  (tools/gateway-simulator) and set GATEWAY_URL; by hand: GATEWAY_SECRET=… GATEWAY_PORT=3002 pnpm --filter @shop/gateway-simulator start',
].join('\n');

export function readShopSettings(env: NodeJS.ProcessEnv): ShopSettings {
  // A web server or worker verifies with public keys only: it is never handed the private release key.
  const handed = PRIVATE_KEY_VARIABLES.filter((name) => env[name]);
  if (handed.length > 0) {
    throw new StartRefused(
      `[server] ${handed.join(' and ')} set in the server's environment: a server holds no private release key (it verifies with the public keys in its database). Unset it; the release tool reads it, the server never does.`,
    );
  }
  const server = readServerConfig(env);
  const checkout = readCheckoutConfig(env, server);
  // Read before anything starts: a bad CANARY_* value refuses the start with its message.
  const canaryPolicy = canaryPolicyFrom(env);
  const commercePolicy = commercePolicyFrom(env);
  if (!checkout.gatewayUrl) throw new StartRefused(NO_GATEWAY);
  return {
    server,
    publicUrl: checkout.publicUrl,
    gatewayUrl: checkout.gatewayUrl,
    mail: { smtpUrl: checkout.smtpUrl, from: checkout.mailFrom, outboxDir: checkout.outboxDir },
    iban: checkout.iban,
    invoiceDir: checkout.invoiceDir,
    canaryPolicy,
    commercePolicy,
    env,
  };
}

/** The server's own lines at its start (plain text on stdout, beside the JSON log lines of requests and jobs). */
export const serverLog = (message: string): void => void process.stdout.write(`[server] ${message}\n`);
