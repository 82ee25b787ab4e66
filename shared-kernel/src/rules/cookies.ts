/** Cookies by name from a document.cookie string or a Cookie header (the last of a name wins). */
export function cookieValues(cookieString: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    values.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return values;
}
