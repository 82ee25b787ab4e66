/**
 * The releases as a server holds them, opened once over its database and its release storage: the
 * public keys it accepts, the signed manifests' check, the registry in force, the audit log, the
 * integrity findings and the preview links. The composition root opens them; the console, the page
 * host and the background work share the same ones.
 */
import { releaseIntegrity, type ReleaseIntegrity, type ReleaseStorage } from '@shop/release';
import type { Db } from '../../db/database.ts';
import type { ReleasedVersions } from '../../infra/deps.ts';
import { releaseIdentities, type ReleaseIdentities } from './identities.repository.ts';
import { integrityFindings, type IntegrityFindings } from './integrity-findings.repository.ts';
import { releasePreviews, type ReleasePreviews } from './previews.repository.ts';
import { registryBook, type TrustedRegistry } from './registry.repository.ts';
import { releaseKeys, type ReleaseKeys } from './release-keys.repository.ts';
import { setFlag, type FlagChange, type FlagChanged } from './feature-flags.repository.ts';

export type ShopReleases = {
  /** Where releases live: the origin directory, or an S3 bucket cached under the origin's `.s3-cache`. */
  storage: ReleaseStorage;
  /** The public keys the shop accepts (the owner's command registers them); a server holds no private key. */
  keys: ReleaseKeys;
  /** Checks a version's files against its signed manifest. */
  integrity: ReleaseIntegrity;
  /** The registry in force: the database, its revision only growing; the origin's files are an export. */
  book: TrustedRegistry;
  /** The audit log and the teams' credentials. */
  identities: ReleaseIdentities;
  findings: IntegrityFindings;
  previews: ReleasePreviews;
  /** Sets an area's feature switch with its audit entry (a signed `flag` request). */
  setFlag: (change: FlagChange) => Promise<FlagChanged>;
};

export function shopReleases(db: Db, storage: ReleaseStorage): ShopReleases {
  const keys = releaseKeys(db);
  return {
    storage,
    keys,
    integrity: releaseIntegrity({ storage, keys: () => keys.trusted() }),
    book: registryBook(db),
    identities: releaseIdentities(db),
    findings: integrityFindings(db),
    previews: releasePreviews(db),
    setFlag: (change) => setFlag(db, change),
  };
}

/** How long the registry's versions are reused for telemetry (ms): a release shows within it. */
const RELEASED_VERSIONS_MS = 1000;

/** The part versions in force or in a canary, from the release registry, read at most once a second. */
export function releasedVersionsOf(book: TrustedRegistry): () => Promise<ReleasedVersions> {
  let kept: { at: number; versions: Promise<ReleasedVersions> } | null = null;
  return () => {
    if (!kept || Date.now() - kept.at > RELEASED_VERSIONS_MS) {
      const versions = book.read().then((registry) => {
        const map = new Map<string, Set<string>>();
        const add = (part: string, version: string | undefined) => {
          if (version) map.set(part, (map.get(part) ?? new Set()).add(version));
        };
        add('shell', registry.shell?.version);
        for (const [area, release] of Object.entries(registry.areas)) add(area, release?.version);
        for (const [area, canary] of Object.entries(registry.canaries ?? {})) add(area, canary?.version);
        return map as ReleasedVersions;
      });
      // A failed read is not kept: the next report reads again.
      versions.catch(() => (kept = null));
      kept = { at: Date.now(), versions };
    }
    return kept.versions;
  };
}
