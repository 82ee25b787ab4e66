import type { DbOrTrx } from '../../../db/database.ts';

/** Complaints, their order line and their photos. */
export class ComplaintRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** A user's complaints or one complaint, newest first, with the order and the line they name. */
  rows(where: { userId?: number; complaintId?: number }) {
    let query = this.db
      .selectFrom('complaints as c')
      .innerJoin('orders as o', 'o.order_id', 'c.order_id')
      .innerJoin('order_items as i', 'i.item_id', 'c.item_id')
      .select([
        'c.complaint_id',
        'c.item_id',
        'c.reason',
        'c.description',
        'c.state',
        'c.created_at',
        'c.settle_by',
        'c.resolution',
        'o.order_number',
        'o.order_token',
        'i.p_name',
        'i.v_name',
      ]);
    if (where.userId !== undefined) query = query.where('c.user_id', '=', where.userId);
    if (where.complaintId !== undefined) query = query.where('c.complaint_id', '=', where.complaintId);
    return query.orderBy('c.created_at', 'desc').orderBy('c.complaint_id', 'desc').execute();
  }

  /** The photos of the given complaints, oldest first. */
  async photos(complaintIds: number[]) {
    if (complaintIds.length === 0) return [];
    return this.db
      .selectFrom('complaint_photos')
      .select(['photo_id', 'complaint_id', 'content_type', 'size'])
      .where('complaint_id', 'in', complaintIds)
      .orderBy('photo_id')
      .execute();
  }

  /** A photo's stored file, when the photo belongs to that complaint and the complaint to that user. */
  photoOfOwner(userId: number, complaintId: number, photoId: number) {
    return this.db
      .selectFrom('complaint_photos as p')
      .innerJoin('complaints as c', 'c.complaint_id', 'p.complaint_id')
      .select(['p.file_name', 'p.content_type'])
      .where('p.photo_id', '=', photoId)
      .where('c.complaint_id', '=', complaintId)
      .where('c.user_id', '=', userId)
      .executeTakeFirst();
  }

  async insert(c: {
    userId: number;
    orderId: number;
    itemId: number;
    reason: string;
    description: string;
    createdAt: string;
    settleBy: string;
  }): Promise<number> {
    const row = await this.db
      .insertInto('complaints')
      .values({
        user_id: c.userId,
        order_id: c.orderId,
        item_id: c.itemId,
        reason: c.reason,
        description: c.description,
        state: 'received',
        created_at: c.createdAt,
        settle_by: c.settleBy,
        updated_at: c.createdAt,
      })
      .returning('complaint_id')
      .executeTakeFirstOrThrow();
    return row.complaint_id;
  }

  async addPhoto(p: { complaintId: number; fileName: string; contentType: string; size: number; createdAt: string }): Promise<void> {
    await this.db
      .insertInto('complaint_photos')
      .values({ complaint_id: p.complaintId, file_name: p.fileName, content_type: p.contentType, size: p.size, created_at: p.createdAt })
      .execute();
  }

  async exists(complaintId: number): Promise<boolean> {
    const row = await this.db.selectFrom('complaints').select('complaint_id').where('complaint_id', '=', complaintId).executeTakeFirst();
    return row !== undefined;
  }

  async setState(complaintId: number, state: string, resolution: string): Promise<void> {
    await this.db
      .updateTable('complaints')
      .set({ state, resolution, updated_at: new Date().toISOString() })
      .where('complaint_id', '=', complaintId)
      .execute();
  }
}
