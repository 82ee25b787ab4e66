/**
 * The operator origin as a server builds it (operator-app.ts): the console on its own origin
 * (OPS_URL), with every release view and move over the server's releases, the backups' record, the
 * shoppers' health and reports, and the pages' script inventory.
 */
import type { OperatorApiOptions } from '../operator-app.ts';
import { backupOverview } from '../backup/server-backups.ts';
import { clientErrorsReader } from '../domains/ops/console/client-errors.ts';
import { cspViolationsReader } from '../domains/ops/console/csp-violations.ts';
import { renderFailuresReader } from '../domains/ops/console/render-failures.ts';
import { vitalsReader } from '../domains/ops/console/vitals.ts';
import { clientHealth } from '../domains/ops/telemetry/client-health.ts';
import { refundsShown } from '../domains/ordering/payments/refunds-shown.ts';
import { setFloor } from '../domains/releases/registry.repository.ts';
import type { OpenedShop } from './open-shop.ts';

/** `gatewayOrigin`: the card gateway's origin, the one place besides the shop a page's form may go. */
export function operatorOriginOptions(opened: OpenedShop, gatewayOrigin: string): OperatorApiOptions {
  const { settings, releases } = opened;
  const { db } = opened.database;
  const { server: config, publicUrl } = settings;
  const { book } = releases;
  return {
    operatorUrl: config.opsUrl,
    trustProxy: config.trustProxy,
    console: {
      storage: releases.storage,
      previews: releases.previews,
      publicUrl,
      health: (since) => clientHealth(db, since),
      backups: backupOverview(db, settings.env, config.dataDir),
      book,
      setFloor: (change) => setFloor(db, book, change),
      keys: releases.keys,
      integrity: releases.integrity,
      findings: releases.findings,
      refunds: () => refundsShown(db),
      cspViolations: cspViolationsReader(db),
      vitals: vitalsReader(db),
      renderFailures: renderFailuresReader(db),
      clientErrors: clientErrorsReader(db),
      inventory: {
        tagManagerId: config.gtmId,
        policy: {
          assetOrigin: config.assetOrigin,
          tagManager: config.gtmId !== null,
          gateway: gatewayOrigin,
          reportTo: publicUrl.startsWith('https:'),
        },
      },
    },
  };
}
