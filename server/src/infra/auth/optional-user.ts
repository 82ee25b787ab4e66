import type { FastifyRequest } from 'fastify';
import { requestToken } from './auth.ts';
import type { ApiDeps } from '../deps.ts';
import { requireUser } from './require-user.ts';

/** The user of a Bearer token or session cookie when one is sent (401 when it is bad), null for a guest. */
export async function optionalUser(request: FastifyRequest, deps: Pick<ApiDeps, 'db' | 'tokens' | 'publicUrl'>): Promise<number | null> {
  if (!requestToken(request, deps.publicUrl)) return null;
  return (await requireUser(request, deps)).id;
}
