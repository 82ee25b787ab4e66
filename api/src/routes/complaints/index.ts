/**
 * Complaints (reklamácie, issue 6): the signed-in shopper files one for a line of a delivered
 * order, with a reason, a description and up to 5 photos (multipart/form-data; JPEG, PNG or WebP
 * recognised by their first bytes, 5 MB each). Photos are stored under the data directory with
 * random names and served only to the complaint's owner. The shop settles each complaint within
 * 30 days; the operator moves its state with the operator token.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AccountCalls, Complaint, ComplaintReason, ComplaintState } from '@shop/shared-kernel/contract';
import {
  COMPLAINT_PHOTO_MAX_BYTES,
  COMPLAINT_PHOTO_MAX_COUNT,
  COMPLAINT_REASON_LABELS,
  COMPLAINT_STATE_LABELS,
  complaintSettleBy,
  imageTypeOf,
} from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../db/database.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { requireUser } from '../account/require-user.ts';
import type { OrderDeps } from '../orders/index.ts';
import { orderByToken } from '../orders/order.service.ts';
import { requireOperator } from '../operator/operator-auth.ts';
import { accountOrderDetail } from '../order-history/order-state.ts';
import { ID_SCHEMA } from '../../lib/validation.ts';

export type ComplaintOptions = OrderDeps & { uploadDir: string };
type Acc<K extends keyof AccountCalls> = AccountCalls[K];

/** Statutory warranty for consumers: 24 months from delivery. */
const WARRANTY_MS = 2 * 365 * 86_400_000;
const REASONS = Object.keys(COMPLAINT_REASON_LABELS) as ComplaintReason[];
const STATES = Object.keys(COMPLAINT_STATE_LABELS) as ComplaintState[];
const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export const COMPLAINT_MESSAGES = {
  notFound: 'Reklamácia sa nenašla.',
  order: 'Objednávka alebo jej položka sa nenašla.',
  notDelivered: 'Reklamovať môžete tovar z doručenej objednávky.',
  withdrawn: 'Od tejto položky ste odstúpili; reklamovať ju už nemožno.',
  warranty: 'Záručná doba 24 mesiacov od doručenia uplynula.',
  reason: 'Vyberte dôvod reklamácie.',
  description: 'Popíšte, prosím, vadu tovaru (aspoň 10 znakov, najviac 2000).',
  photoType: 'Fotografie môžu byť len vo formáte JPEG, PNG alebo WebP.',
  photoSize: `Každá fotografia môže mať najviac ${COMPLAINT_PHOTO_MAX_BYTES / 1024 / 1024} MB a spolu najviac ${COMPLAINT_PHOTO_MAX_COUNT} fotografií.`,
  multipart: 'Reklamáciu odošlite ako formulár (multipart/form-data).',
  unreadable: 'Formulár reklamácie sa nepodarilo prečítať. Skúste ho, prosím, odoslať znova.',
} as const;

async function toComplaints(db: DbOrTrx, where: { userId?: number; complaintId?: number }): Promise<Complaint[]> {
  let query = db
    .selectFrom('complaints as c')
    .innerJoin('orders as o', 'o.order_id', 'c.order_id')
    .innerJoin('order_items as i', 'i.item_id', 'c.item_id')
    .select(['c.complaint_id', 'c.item_id', 'c.reason', 'c.description', 'c.state', 'c.created_at', 'c.settle_by', 'c.resolution', 'o.order_number', 'o.order_token', 'i.p_name', 'i.v_name']);
  if (where.userId !== undefined) query = query.where('c.user_id', '=', where.userId);
  if (where.complaintId !== undefined) query = query.where('c.complaint_id', '=', where.complaintId);
  const rows = await query.orderBy('c.created_at', 'desc').orderBy('c.complaint_id', 'desc').execute();
  const ids = rows.map((r) => r.complaint_id);
  const photos = ids.length === 0 ? [] : await db.selectFrom('complaint_photos').select(['photo_id', 'complaint_id', 'content_type', 'size']).where('complaint_id', 'in', ids).orderBy('photo_id').execute();
  return rows.map((r) => ({
    id: r.complaint_id,
    orderNumber: r.order_number,
    orderToken: r.order_token,
    itemId: r.item_id,
    productName: `${r.p_name} (${r.v_name})`,
    reason: r.reason as ComplaintReason,
    description: r.description,
    state: r.state as ComplaintState,
    createdAt: r.created_at,
    settleBy: r.settle_by,
    resolution: r.resolution,
    photos: photos.filter((p) => p.complaint_id === r.complaint_id).map((p) => ({ id: p.photo_id, contentType: p.content_type, size: p.size })),
  }));
}

export const complaintRoutes: FastifyPluginAsync<ComplaintOptions> = async (app, deps) => {
  const { db } = deps;
  await app.register(multipart, {
    limits: { fileSize: COMPLAINT_PHOTO_MAX_BYTES, files: COMPLAINT_PHOTO_MAX_COUNT, fields: 10, fieldSize: 4096, parts: 20 },
  });

  app.get<{ Reply: Acc<'GET /api/account/complaints'>['answer'] }>('/account/complaints', async (request) => {
    const user = await requireUser(request, deps);
    return { data: await toComplaints(db, { userId: user.id }) };
  });

  app.post<{ Reply: Acc<'POST /api/account/complaints'>['answer'] }>('/account/complaints', async (request, reply) => {
    const user = await requireUser(request, deps);
    if (!request.isMultipart()) throw new ApiError(415, 'bad_request', COMPLAINT_MESSAGES.multipart);
    const fields: Record<string, string> = {};
    const photos: { data: Buffer; type: string }[] = [];
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          if (data.length === 0) continue; // an empty file input
          const type = imageTypeOf(data);
          if (!type) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.photoType);
          photos.push({ data, type });
        } else if (typeof part.value === 'string') {
          if (part.value.includes('\u0000')) throw new ApiError(400, 'bad_request', COMPLAINT_MESSAGES.unreadable);
          fields[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        throw new ApiError(413, 'bad_request', COMPLAINT_MESSAGES.photoSize);
      }
      // A malformed or cut-off form (busboy's parse errors, a closed connection): the shopper's, not ours.
      request.log.info({ err: error }, 'complaint form could not be read');
      throw new ApiError(400, 'bad_request', COMPLAINT_MESSAGES.unreadable);
    }

    const token = fields.orderToken ?? '';
    const itemId = Number(fields.itemId);
    const reason = (fields.reason ?? '') as ComplaintReason;
    const description = (fields.description ?? '').trim();
    if (!/^[A-Za-z0-9]{32}$/.test(token) || !Number.isSafeInteger(itemId)) throw notFound(COMPLAINT_MESSAGES.order);
    const order = await orderByToken(db, token);
    if (!order || order.user_id !== user.id) throw notFound(COMPLAINT_MESSAGES.order);
    const detail = await accountOrderDetail(db, order, deps.checkout.iban);
    const line = detail.lines.find((l) => l.itemId === itemId);
    if (!line) throw notFound(COMPLAINT_MESSAGES.order);
    if (!REASONS.includes(reason)) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.reason);
    if (description.length < 10 || description.length > 2000) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.description);
    if (line.withdrawn) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.withdrawn);
    if (!detail.canComplain || !detail.deliveredAt) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.notDelivered);
    if (Date.now() - Date.parse(detail.deliveredAt) > WARRANTY_MS) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.warranty);

    const now = new Date().toISOString();
    await mkdir(deps.uploadDir, { recursive: true });
    const written: string[] = [];
    try {
      const complaintId = await db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('complaints').values({
          user_id: user.id, order_id: order.order_id, item_id: itemId, reason, description, state: 'received',
          created_at: now, settle_by: complaintSettleBy(now), updated_at: now,
        }).returning('complaint_id').executeTakeFirstOrThrow();
        for (const photo of photos) {
          const fileName = `${randomBytes(16).toString('hex')}.${EXT[photo.type]}`;
          await writeFile(join(deps.uploadDir, fileName), photo.data, { mode: 0o600 });
          written.push(fileName);
          await trx.insertInto('complaint_photos').values({ complaint_id: row.complaint_id, file_name: fileName, content_type: photo.type, size: photo.data.length, created_at: now }).execute();
        }
        return row.complaint_id;
      });
      reply.status(201);
      return { data: (await toComplaints(db, { complaintId }))[0]! };
    } catch (error) {
      await Promise.all(written.map((f) => rm(join(deps.uploadDir, f), { force: true })));
      throw error;
    }
  });

  app.get<{ Params: { id: number; photoId: number } }>(
    '/account/complaints/:id/photos/:photoId',
    { schema: { params: { type: 'object', required: ['id', 'photoId'], properties: { id: ID_SCHEMA, photoId: ID_SCHEMA } } } },
    async (request, reply) => {
      const user = await requireUser(request, deps);
      const photo = await db
        .selectFrom('complaint_photos as p')
        .innerJoin('complaints as c', 'c.complaint_id', 'p.complaint_id')
        .select(['p.file_name', 'p.content_type'])
        .where('p.photo_id', '=', request.params.photoId)
        .where('c.complaint_id', '=', request.params.id)
        .where('c.user_id', '=', user.id)
        .executeTakeFirst();
      if (!photo) throw notFound('Fotografia sa nenašla.');
      const data = await readFile(join(deps.uploadDir, photo.file_name)).catch(() => null);
      if (!data) throw notFound('Fotografia sa nenašla.');
      return reply
        .type(photo.content_type)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(data);
    },
  );

  app.post<{ Params: { id: number }; Body: Acc<'POST /api/operator/complaints/:id/state'>['body']; Reply: Acc<'POST /api/operator/complaints/:id/state'>['answer'] }>(
    '/operator/complaints/:id/state',
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } },
        body: { type: 'object', required: ['state'], properties: { state: { type: 'string', enum: STATES }, resolution: { type: 'string', maxLength: 2000 } } },
      },
    },
    async (request) => {
      requireOperator(request, deps.checkout);
      const existing = await db.selectFrom('complaints').select('complaint_id').where('complaint_id', '=', request.params.id).executeTakeFirst();
      if (!existing) throw notFound(COMPLAINT_MESSAGES.notFound);
      await db.updateTable('complaints')
        .set({ state: request.body.state, resolution: request.body.resolution?.trim() ?? '', updated_at: new Date().toISOString() })
        .where('complaint_id', '=', existing.complaint_id).execute();
      return { data: (await toComplaints(db, { complaintId: existing.complaint_id }))[0]! };
    },
  );
};
