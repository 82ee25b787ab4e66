/**
 * How many different violation rows one client may add to a day's store (csp_violations), per
 * bucket: anyone can post reports, so without it a handful of crafted reports naming many made-up
 * hosts would fill the day's rows and a real skimmer's host, reported later by a shopper's browser,
 * would be stored only as `other`. A real browser reports a few distinct violations a day; a key
 * past a client's budget is counted in its bucket's `other` row (and in the metrics, which count
 * every violation before any of this).
 *
 * Kept in this process's memory (each server of a cluster keeps its own, so a client may add its
 * budget once per server), for at most MAX_CLIENTS clients at a time, the longest unseen forgotten.
 * A client is its address, an IPv6 address by its /64 (one subscriber's usual allocation).
 */
import { dayOf } from './csp-violations.repository.ts';

/** Distinct keys one client may add a day to each bucket. */
export const CSP_KEYS_PER_CLIENT = 20;
const MAX_CLIENTS = 10_000;

/** The client an address stands for: an IPv4 address as it is, an IPv6 address by its first four groups (its /64). */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const first = head ? head.split(':') : [];
  const last = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? first : [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':');
}

/** A short fingerprint of a key (FNV-1a, 32 bits): the budget keeps these, not the keys. */
function fingerprint(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export class CspClientBudget {
  private readonly clients = new Map<string, { day: string; keys: Map<string, Set<number>> }>();

  constructor(private readonly perClient = CSP_KEYS_PER_CLIENT) {}

  /** Whether `client` may add the key `id` of `bucket` today (a key it added before always may). */
  admit(client: string, bucket: string, id: string, at: Date): boolean {
    const day = dayOf(at);
    let entry = this.clients.get(client);
    if (entry?.day !== day) entry = { day, keys: new Map() };
    // Most recently seen last: the first is the one to forget.
    this.clients.delete(client);
    this.clients.set(client, entry);
    if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    const keys = entry.keys.get(bucket) ?? new Set<number>();
    entry.keys.set(bucket, keys);
    const print = fingerprint(id);
    if (keys.has(print)) return true;
    if (keys.size >= this.perClient) return false;
    keys.add(print);
    return true;
  }
}
