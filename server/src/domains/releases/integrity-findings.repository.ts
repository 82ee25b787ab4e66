/**
 * What the integrity check found, kept in the database so every server shows the same on /ops and
 * in /api/metrics: one row per part, version, file (or page) and kind, its first and last sighting
 * and what was done about it.
 */
import type { DbOrTrx } from '../../db/database.ts';
import type { ReleaseIntegrityFindingRow } from '../../db/release-integrity.table.ts';

/**
 * `file`: on the origin (or in the bucket); `cache`: this server's copy of a bucket's version on its
 * disk; `cdn`: as sent from where browsers load it; `signature`: the manifest's; `headers`: the checkout
 * page's; `registry`: an origin export of the registry someone else wrote.
 */
export type FindingKind = 'file' | 'cache' | 'cdn' | 'signature' | 'headers' | 'registry';
export type FindingAction = 'fallback' | 'canary-aborted' | 'alert' | 'contained';
export type Finding = {
  part: string;
  version: string;
  subject: string;
  kind: FindingKind;
  expected: string | null;
  actual: string | null;
  action: FindingAction;
  detail?: string | null;
};

const cut = (value: string | null | undefined, length: number) => (value == null ? null : value.slice(0, length));

export function integrityFindings(db: DbOrTrx) {
  return {
    /** Adds a finding, or marks it seen again (one statement: two checkers at once keep one row). */
    async record(finding: Finding): Promise<void> {
      const now = new Date().toISOString();
      await db
        .insertInto('release_integrity_findings')
        .values({
          part: finding.part,
          version: finding.version,
          subject: cut(finding.subject, 300)!,
          kind: finding.kind,
          expected: cut(finding.expected, 200),
          actual: cut(finding.actual, 200),
          first_seen: now,
          last_seen: now,
          action: finding.action,
          detail: cut(finding.detail, 500),
        })
        .onConflict((conflict) =>
          conflict
            .columns(['part', 'version', 'subject', 'kind'])
            .doUpdateSet({ last_seen: now, actual: cut(finding.actual, 200), action: finding.action, detail: cut(finding.detail, 500) }),
        )
        .execute();
    },
    /** The newest findings, newest sighting first. */
    recent(limit: number): Promise<ReleaseIntegrityFindingRow[]> {
      return db
        .selectFrom('release_integrity_findings')
        .selectAll()
        .orderBy('last_seen', 'desc')
        .orderBy('finding_id', 'desc')
        .limit(limit)
        .execute();
    },
    /** Notes that a check finished (one row, whichever process checked). */
    async checked(outcome: 'intact' | 'tampered' | 'failed', revision: string | null): Promise<void> {
      const now = new Date().toISOString();
      await db
        .insertInto('release_integrity_checks')
        .values({ name: 'files', checked_at: now, outcome, revision })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ checked_at: now, outcome, revision }))
        .execute();
    },
    /** The last finished check, and the registry revision it checked; null before the first. */
    async lastCheck(): Promise<{ at: string; outcome: string; revision: string | null } | null> {
      const row = await db
        .selectFrom('release_integrity_checks')
        .select(['checked_at', 'outcome', 'revision'])
        .where('name', '=', 'files')
        .executeTakeFirst();
      return row ? { at: row.checked_at, outcome: row.outcome, revision: row.revision } : null;
    },
    /** Findings per part and kind (the metrics). */
    async counts(): Promise<{ part: string; kind: string; count: number }[]> {
      const rows = await db
        .selectFrom('release_integrity_findings')
        .select(['part', 'kind', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy(['part', 'kind'])
        .execute();
      return rows.map((row) => ({ part: row.part, kind: row.kind, count: Number(row.count) }));
    },
  };
}

export type IntegrityFindings = ReturnType<typeof integrityFindings>;
