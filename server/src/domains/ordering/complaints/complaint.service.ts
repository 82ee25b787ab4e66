/**
 * Complaints (reklamácie): the signed-in shopper files one for a line of a delivered order, with a
 * reason, a description and up to 5 photos (JPEG, PNG or WebP recognised by their first bytes).
 * Photos are stored in the file store (infra/storage/file-store.ts) as `complaints/<random name>` (the
 * database keeps the name) and served only to the complaint's owner. The shop settles each
 * complaint within 30 days; the operator moves its state.
 */
import { randomBytes } from 'node:crypto';
import type { Complaint, ComplaintReason, ComplaintState } from '@shop/shared-kernel/contract';
import {
  COMPLAINT_PHOTO_MAX_BYTES,
  COMPLAINT_PHOTO_MAX_COUNT,
  COMPLAINT_REASON_LABELS,
  complaintSettleBy,
} from '@shop/shared-kernel/rules';
import type { Db, DbOrTrx } from '../../../db/database.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import type { FileStore } from '../../../infra/storage/file-store.ts';
import { lockOrder, orderByToken } from '../order-core/order-access.ts';
import { accountOrderDetail } from '../order-history/order-state.ts';
import { ComplaintRepository } from './complaint.repository.ts';

/** Statutory warranty for consumers: 24 months from delivery. */
const WARRANTY_MS = 2 * 365 * 86_400_000;
const REASONS = Object.keys(COMPLAINT_REASON_LABELS) as ComplaintReason[];
const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };
/** A photo's key in the file store, by the file name the database keeps. */
const photoKey = (fileName: string) => `complaints/${fileName}`;

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
  photoNotFound: 'Fotografia sa nenašla.',
} as const;

/** What the complaint form sent: its text fields as typed and its photos (type already recognised). */
export type ComplaintForm = { fields: Record<string, string>; photos: { data: Buffer; type: string }[] };

export class ComplaintService {
  /** `iban`: for the order's detail; `files`: where the photos are stored. */
  constructor(
    private readonly db: Db,
    private readonly iban: string,
    private readonly files: FileStore,
  ) {}

  async list(where: { userId?: number; complaintId?: number }): Promise<Complaint[]> {
    const repo = new ComplaintRepository(this.db);
    const rows = await repo.rows(where);
    const photos = await repo.photos(rows.map((r) => r.complaint_id));
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
      photos: photos
        .filter((p) => p.complaint_id === r.complaint_id)
        .map((p) => ({ id: p.photo_id, contentType: p.content_type, size: p.size })),
    }));
  }

  private async one(complaintId: number): Promise<Complaint> {
    const [complaint] = await this.list({ complaintId });
    if (!complaint) throw notFound(COMPLAINT_MESSAGES.notFound);
    return complaint;
  }

  /** Files a complaint of a line of the user's own delivered order, within the warranty. */
  async file(userId: number, form: ComplaintForm): Promise<Complaint> {
    const { fields, photos } = form;
    const token = fields.orderToken ?? '';
    const itemId = Number(fields.itemId);
    const reason = (fields.reason ?? '') as ComplaintReason;
    const description = (fields.description ?? '').trim();
    if (!/^[A-Za-z0-9]{32}$/.test(token) || !Number.isSafeInteger(itemId)) throw notFound(COMPLAINT_MESSAGES.order);
    const order = await orderByToken(this.db, token);
    if (!order || order.user_id !== userId) throw notFound(COMPLAINT_MESSAGES.order);
    if (!(await accountOrderDetail(this.db, order, this.iban)).lines.some((l) => l.itemId === itemId))
      throw notFound(COMPLAINT_MESSAGES.order);
    if (!REASONS.includes(reason)) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.reason);
    if (description.length < 10 || description.length > 2000) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.description);
    // Checked before the photos are uploaded (a refused complaint uploads nothing), and again below under the order's lock.
    await this.checkComplainable(this.db, token, itemId);

    const stored = photos.map((photo) => ({ ...photo, fileName: `${randomBytes(16).toString('hex')}.${EXT[photo.type]}` }));
    let complaintId: number;
    try {
      // The photos first, outside the transaction: an upload to S3 takes a while, and the database
      // is not held meanwhile. Every upload settles before a failure is acted on, so none lands after the clean-up.
      const uploads = await Promise.allSettled(stored.map((p) => this.files.put(photoKey(p.fileName), p.data, p.type)));
      const failed = uploads.find((u): u is PromiseRejectedResult => u.status === 'rejected');
      if (failed) throw failed.reason;
      complaintId = await this.db.transaction().execute(async (trx) => {
        // A withdrawal of the line sent at the same moment either ends before this check or waits for the complaint.
        await lockOrder(trx, order.order_id);
        await this.checkComplainable(trx, token, itemId);
        // Dated under the lock: a withdrawal dated after it came after it.
        const now = new Date().toISOString();
        const repo = new ComplaintRepository(trx);
        const id = await repo.insert({
          userId,
          orderId: order.order_id,
          itemId,
          reason,
          description,
          createdAt: now,
          settleBy: complaintSettleBy(now),
        });
        for (const p of stored) {
          await repo.addPhoto({ complaintId: id, fileName: p.fileName, contentType: p.type, size: p.data.length, createdAt: now });
        }
        return id;
      });
    } catch (error) {
      // Nothing was stored: the photos go too (a photo that cannot be removed is left; the original error is the one to report).
      await Promise.all(stored.map((p) => this.files.remove(photoKey(p.fileName)).catch(() => undefined)));
      throw error;
    }
    // Committed: the photos belong to the complaint now, whatever happens below.
    return this.one(complaintId);
  }

  /** The rule: a line not withdrawn, of a delivered order, within the warranty; throws the refusal. */
  private async checkComplainable(db: DbOrTrx, orderToken: string, itemId: number): Promise<void> {
    const detail = await accountOrderDetail(db, (await orderByToken(db, orderToken))!, this.iban);
    const line = detail.lines.find((l) => l.itemId === itemId);
    if (!line) throw notFound(COMPLAINT_MESSAGES.order);
    if (line.withdrawn) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.withdrawn);
    if (!detail.canComplain || !detail.deliveredAt) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.notDelivered);
    if (Date.now() - Date.parse(detail.deliveredAt) > WARRANTY_MS) throw new ApiError(409, 'conflict', COMPLAINT_MESSAGES.warranty);
  }

  /** A photo of the user's own complaint, else 404. */
  async photo(userId: number, complaintId: number, photoId: number): Promise<{ data: Buffer; contentType: string }> {
    const photo = await new ComplaintRepository(this.db).photoOfOwner(userId, complaintId, photoId);
    if (!photo) throw notFound(COMPLAINT_MESSAGES.photoNotFound);
    // A missing file is a 404; a store that cannot be reached is an error (500), not a missing photo.
    const data = await this.files.get(photoKey(photo.file_name));
    if (!data) throw notFound(COMPLAINT_MESSAGES.photoNotFound);
    return { data, contentType: photo.content_type };
  }

  /** The operator's move of a complaint to another state, with the resolution the shopper sees. */
  async setState(complaintId: number, state: ComplaintState, resolution: string): Promise<Complaint> {
    const repo = new ComplaintRepository(this.db);
    if (!(await repo.exists(complaintId))) throw notFound(COMPLAINT_MESSAGES.notFound);
    await repo.setState(complaintId, state, resolution.trim());
    return this.one(complaintId);
  }
}
