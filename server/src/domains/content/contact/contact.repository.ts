import type { DbOrTrx } from '../../../db/database.ts';

export type StoredContactMessage = {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  user_id: number | null;
  created_at: string;
};

/** Messages from the contact form. */
export class ContactRepository {
  constructor(private readonly db: DbOrTrx) {}

  async save(message: StoredContactMessage): Promise<void> {
    await this.db.insertInto('contact_messages').values(message).execute();
  }
}
