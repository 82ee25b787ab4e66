/**
 * What of a request's address may be written to the log. Some addresses carry a secret: the
 * e-mailed password-reset link (`/account/password-reset?token=…`), the e-mail confirmation
 * (`/account/profile?emailToken=…`), an operator's preview link (`/preview?token=…`), the payment
 * pages' and the complaint form's order token (`?order=…`), and the order token in the path of the
 * thank-you page and of the order's API calls. Whoever reads the log must not be able to use them:
 * their values are replaced, the rest of the address is kept to find the request.
 *
 * Used as the logger's serializer of every `url` field (observability.ts), so every log line that
 * names an address, the request line and any `{ url: request.url }` a route logs, goes through it.
 */

/** Query parameters whose value is a secret: these names, and any name that says it is a token, secret, signature or password. */
const SECRET_PARAMETERS = new Set(['token', 'emailtoken', 'order']);
const SECRET_NAME = /token|secret|signature|password/i;
/** Paths whose next segment is an order's token. */
const TOKEN_IN_PATH = /^(\/api\/orders|\/api\/account\/orders|\/checkout\/thankyou|\/account\/orders)\/[^/?#]+/i;
const HIDDEN = 'REDACTED';
/** The longest address a log line keeps. */
const LOGGED_LENGTH = 300;

const isSecret = (name: string) => {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape is judged as written.
  }
  return SECRET_PARAMETERS.has(decoded.toLowerCase()) || SECRET_NAME.test(decoded);
};

/** The address with every secret value replaced, at most LOGGED_LENGTH characters; anything but a string as it is. */
export function redactUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const shownPath = path.replace(TOKEN_IN_PATH, (_match, prefix: string) => `${prefix}/${HIDDEN}`);
  if (queryAt === -1) return shownPath.slice(0, LOGGED_LENGTH);
  // Parameter by parameter as written (no re-encoding), so the line shows what was asked for.
  const query = withoutHash
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isSecret(name) ? `${name}=${HIDDEN}` : pair;
    })
    .join('&');
  return `${shownPath}?${query}`.slice(0, LOGGED_LENGTH);
}
