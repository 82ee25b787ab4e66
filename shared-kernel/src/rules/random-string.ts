const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Largest multiple of the alphabet size below 256: bytes at or above it are
// rejected so every character is equally likely.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** A random alphanumeric string (A–Z, a–z, 0–9) from crypto.getRandomValues. */
export function randomString(length = 32): string {
  if (!Number.isInteger(length) || length < 0) {
    throw new RangeError(`randomString: invalid length ${length}`);
  }
  let out = '';
  const bytes = new Uint8Array(Math.max(16, length * 2));
  while (out.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHABET.charAt(byte % ALPHABET.length);
      if (out.length === length) break;
    }
  }
  return out;
}
