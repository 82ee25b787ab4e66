/**
 * What the pages' Content-Security-Policy (the server's) and the browser's code that writes into
 * the page must agree on.
 */

/** The name of the shop's one Trusted Types policy (`trusted-types shop`; @shop/shared-kernel/react's trusted-types.ts). */
export const TRUSTED_TYPES_POLICY = 'shop';

/** Tag Manager's container script: the policy names this exact path, the Trusted Types policy the one container's query. */
export const TAG_MANAGER_SCRIPT = 'https://www.googletagmanager.com/gtm.js';

/** The configured container's script address. */
export function tagManagerScriptUrl(gtmId: string): string {
  return `${TAG_MANAGER_SCRIPT}?id=${encodeURIComponent(gtmId)}`;
}
