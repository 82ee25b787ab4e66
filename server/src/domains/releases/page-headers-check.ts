/**
 * What the integrity watch asks of the checkout's page (PCI DSS 11.6.1: unauthorised changes to a
 * payment page's security headers are detected): the headers every page carries, and a policy that
 * still admits no script but the shop's own and those named by hash.
 */
import { securityHeaders } from '../../infra/http/security-headers.ts';

/** Directives the policy must keep exactly so. */
const REQUIRED_DIRECTIVES: Record<string, string> = { 'object-src': "'none'", 'base-uri': "'none'", 'frame-ancestors': "'none'" };
/** Sources that would let any script run. */
const UNSAFE_SCRIPT_SOURCES = ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:', 'blob:'];

/** What is wrong with a page's answer headers; empty when nothing is. */
export function pageHeaderProblems(headers: Headers): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(securityHeaders({ hsts: false }))) {
    if (headers.get(name) !== value) problems.push(`${name}: ${headers.get(name) ?? 'chýba'}`);
  }
  const policy = headers.get('content-security-policy');
  if (!policy) return [...problems, 'content-security-policy: chýba'];
  const directives = new Map(
    policy.split(';').map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/);
      return [name.toLowerCase(), sources] as const;
    }),
  );
  for (const [name, value] of Object.entries(REQUIRED_DIRECTIVES)) {
    if (directives.get(name)?.join(' ') !== value)
      problems.push(`content-security-policy ${name}: ${directives.get(name)?.join(' ') ?? 'chýba'}`);
  }
  const scripts = directives.get('script-src') ?? directives.get('default-src');
  if (!scripts) problems.push('content-security-policy script-src: chýba');
  else
    for (const source of scripts)
      if (UNSAFE_SCRIPT_SOURCES.includes(source)) problems.push(`content-security-policy script-src: ${source}`);
  return problems;
}

export async function checkPageHeaders(url: string): Promise<string[]> {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return pageHeaderProblems(response.headers);
}
