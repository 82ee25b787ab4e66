/**
 * The shop's two servers in one process: the shop's (the API, app.ts; the page host joins it) and,
 * beside it, the operator origin's (operator-app.ts: the console and every operator call), sharing the
 * shop's database, metrics and outbox. The server's composition root builds them so, and so does every
 * API test (server/test/helpers/test-api.ts): nothing mounts the operator console by itself.
 */
import type { FastifyInstance } from 'fastify';
import { buildApi, type BuildApiOptions } from './app.ts';
import { buildOperatorApi, type OperatorApiOptions } from './operator-app.ts';

export type ShopServersOptions = {
  api: BuildApiOptions;
  /** The operator origin's settings and console; null: none (a worker answers only its health and metrics). */
  operatorOrigin: OperatorApiOptions | null;
};

export type ShopServers = { api: FastifyInstance; operatorOrigin: FastifyInstance | null };

export function buildShopServers(
  options: ShopServersOptions & { operatorOrigin: OperatorApiOptions },
): ShopServers & { operatorOrigin: FastifyInstance };
export function buildShopServers(options: ShopServersOptions): ShopServers;
export function buildShopServers(options: ShopServersOptions): ShopServers {
  const api = buildApi(options.api);
  return { api, operatorOrigin: options.operatorOrigin ? buildOperatorApi(api, options.operatorOrigin) : null };
}
