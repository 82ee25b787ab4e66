/**
 * Reading an order by its key, token or number, and locking its row: what every part of ordering
 * that changes an order (placing, paying, withdrawing, complaints, the gateway's notifications) starts with.
 */
import type { DbOrTrx } from '../../../db/database.ts';
import { OrderRepository } from './order.repository.ts';

/** The answer to an order number or token that names no order. */
export const ORDER_NOT_FOUND = 'Objednávka sa nenašla.';

export const orderByKey = (db: DbOrTrx, key: string) => new OrderRepository(db).byKey(key);
export const orderByToken = (db: DbOrTrx, token: string) => new OrderRepository(db).byToken(token);
export const orderByNumber = (db: DbOrTrx, number: string) => new OrderRepository(db).byNumber(number);

/** Locks an order's row for the rest of the transaction, so checks made after it see no concurrent change. */
export const lockOrder = (trx: DbOrTrx, orderId: number): Promise<void> => new OrderRepository(trx).lock(orderId);
