/**
 * The operator's stored redirects, on the operator origin only (operatorAuth's `operator` access):
 * the list, a new or changed one, a removed one; each change in the audit log with the operator's
 * name. A checkout, payment or account address never leads out of the shop (the kernel's
 * `leavesShop`, the same rule the lookup follows).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentCalls } from '@shop/shared-kernel/schemas';
import { leavesShop, redirectKey, redirectTable, resolveRedirect, safeRedirectTarget } from '@shop/shared-kernel/rules';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { RedirectRepository } from './redirect.repository.ts';
import { redirectsChanged } from './redirect-lookup.ts';

/** Paths the shop itself serves outside its pages: an old address there would lock a part of it out. */
const RESERVED = /^\/(api|media|builds|assets|ops|preview)(\/|$)/;
const OPERATOR = { access: 'operator' } as const;

const invalid = (message: string) => new ApiError(400, 'validation_failed', message);

export const redirectOperatorRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const redirects = new RedirectRepository(deps.db);

  app.route({
    ...callRoute(contentCalls, 'GET /api/operator/redirects'),
    config: OPERATOR,
    handler: async () => ({ data: await redirects.all() }),
  });

  app.route({
    ...callRoute(contentCalls, 'PUT /api/operator/redirects'),
    config: OPERATOR,
    handler: async (request) => {
      const { old_url: givenOld, new_url: givenNew } = request.body;
      const oldUrl = /[?#\s\\]/.test(givenOld) ? null : redirectKey(givenOld);
      if (oldUrl === null || oldUrl === '/' || RESERVED.test(oldUrl))
        throw invalid('Stará adresa musí byť cesta obchodu bez parametrov, napríklad /doprava-a-platba.');
      const newUrl = safeRedirectTarget(givenNew);
      if (newUrl === null) throw invalid('Nová adresa musí byť cesta obchodu (/…) alebo úplná adresa http(s)://…');
      const others = (await redirects.all()).filter((entry) => redirectKey(entry.old_url) !== oldUrl);
      if (leavesShop(redirectTable(others), oldUrl, newUrl))
        throw new ApiError(
          422,
          'validation_failed',
          'Adresy pokladne, platby a zákazníckeho účtu (/checkout…, /payment…, /account…) môžu viesť len na inú cestu obchodu, nie na iný web.',
        );
      // Followed from the new table, the old address must lead somewhere else, never round a loop.
      if (resolveRedirect(redirectTable([{ old_url: oldUrl, new_url: newUrl }, ...others]), oldUrl) === null)
        throw new ApiError(409, 'conflict', 'Presmerovanie by viedlo späť na starú adresu (do slučky).');
      await redirects.put(oldUrl, newUrl);
      redirectsChanged();
      await request.audit({ action: 'redirect-put', detail: `${oldUrl} → ${newUrl}` });
      return { data: { old_url: oldUrl, new_url: newUrl } };
    },
  });

  app.route({
    ...callRoute(contentCalls, 'DELETE /api/operator/redirects'),
    config: OPERATOR,
    handler: async (request) => {
      const oldUrl = redirectKey(request.query.old_url);
      if (oldUrl === null || !(await redirects.remove(oldUrl))) throw notFound('Presmerovanie tejto adresy neexistuje.');
      redirectsChanged();
      await request.audit({ action: 'redirect-delete', detail: oldUrl });
      return { data: { ok: true as const } };
    },
  });
};
