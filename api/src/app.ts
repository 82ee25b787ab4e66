import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Db, DialectName } from './db/database.ts';
import { createTokenService } from './lib/auth.ts';
import { errorHandler, notFoundHandler } from './lib/error-handler.ts';
import { accountRoutes } from './routes/account/index.ts';
import { catalogRoutes } from './routes/catalog/index.ts';
import { contentRoutes } from './routes/content/index.ts';
import { couponRoutes } from './routes/coupon/index.ts';
import type { ApiDeps } from './routes/deps.ts';
import { mediaRoutes } from './routes/media/index.ts';
import { redirectRoutes } from './routes/redirect/index.ts';

export { createDatabase } from './db/create-database.ts';
export type { CreateDatabaseOptions, CreatedDatabase } from './db/create-database.ts';

export type BuildApiOptions = {
  db: Db;
  dialect: DialectName;
  /** HS256 key for sign-in tokens (at least 16 characters). */
  jwtSecret: string;
  logger?: boolean;
};

/**
 * The HTTP API: JSON calls under /api and generated product pictures under /media.
 * The caller adds anything else (static front-end) and listens; an unknown /api path answers
 * a JSON 404, other unknown paths are left to the caller.
 */
export function buildApi(opts: BuildApiOptions): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 256 * 1024,
  });
  const deps: ApiDeps = { db: opts.db, dialect: opts.dialect, tokens: createTokenService(opts.jwtSecret) };

  app.setErrorHandler(errorHandler);

  app.register(
    async (api) => {
      api.setNotFoundHandler(notFoundHandler);
      await api.register(catalogRoutes, { ...deps });
      await api.register(contentRoutes, { ...deps });
      await api.register(redirectRoutes, { ...deps });
      await api.register(accountRoutes, { ...deps });
      await api.register(couponRoutes, { ...deps });
    },
    { prefix: '/api' },
  );
  app.register(mediaRoutes, { ...deps, prefix: '/media' });

  return app;
}
