/**
 * `GET /api/ops/vitals?hours=24`: the shoppers' Web Vitals per area version over the last hours
 * (the current one included): p75 and samples of LCP, INP, CLS, FCP and TTFB, each version marked
 * stable or canary from the registry. Registered inside the ops routes, for a signed-in operator.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TelemetryArea, VitalMetric, VitalsReport, VitalsRow } from '@shop/shared-kernel/contract';
import { VITAL_NAMES } from '@shop/shared-kernel/rules';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { isPart } from '@shop/release';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { Db } from '../../../db/database.ts';
import { hourOf, vitalsSummary, type VitalSummary } from '../telemetry/vitals.repository.ts';

/** What the server hands the ops routes: the reader of the distributions (a database's, or a test's). */
export type VitalsReader = (range: { since: Date; until: Date }) => Promise<VitalSummary[]>;
export const vitalsReader =
  (db: Db): VitalsReader =>
  (range) =>
    vitalsSummary(db, range);

/** Each part's stable and canary version in the registry. */
export type PartVersions = { part: string; version: string | null; canary: { version: string } | null }[];

const RANK = { stable: 0, canary: 1, other: 2 } as const;

/** The summary as /ops shows it: a row per area version with every metric, stable then canary then the rest. */
export function vitalsReport(
  summary: VitalSummary[],
  parts: PartVersions,
  range: { since: Date; until: Date; hours: number },
): VitalsReport {
  const rows = new Map<string, VitalsRow & { samples: number }>();
  for (const item of summary) {
    if (!isPart(item.part)) continue;
    const id = `${item.part}\u0000${item.version}`;
    const entry = parts.find((p) => p.part === item.part);
    const state = entry?.version === item.version ? 'stable' : entry?.canary?.version === item.version ? 'canary' : 'other';
    const row = rows.get(id) ?? {
      area: item.part as TelemetryArea,
      version: item.version,
      state,
      metrics: VITAL_NAMES.map((metric) => ({ metric: metric as VitalMetric, p75: null, samples: 0 })),
      samples: 0,
    };
    const metric = row.metrics.find((m) => m.metric === item.metric);
    if (metric) {
      metric.p75 = item.p75;
      metric.samples = item.samples;
    }
    row.samples += item.samples;
    rows.set(id, row);
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      (a.area < b.area ? -1 : a.area > b.area ? 1 : 0) ||
      RANK[a.state] - RANK[b.state] ||
      b.samples - a.samples ||
      (a.version < b.version ? -1 : a.version > b.version ? 1 : 0),
  );
  return {
    since: hourOf(range.since),
    until: range.until.toISOString(),
    hours: range.hours,
    rows: sorted.map(({ samples: _samples, ...row }) => row),
  };
}

export const vitalsRoutes: FastifyPluginAsync<{
  read: VitalsReader;
  /** The stable and canary version of each part now. */
  parts: () => Promise<PartVersions>;
}> = async (plugin, { read, parts }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/vitals'),
    config: { access: 'operator' },
    handler: async (request, reply) => {
      const { hours } = request.query;
      const until = new Date();
      const since = new Date(until.getTime() - (hours - 1) * 3_600_000);
      const [summary, versions] = await Promise.all([read({ since, until }), parts()]);
      reply.header('cache-control', 'no-store');
      return { data: vitalsReport(summary, versions, { since, until, hours }) };
    },
  });
};
