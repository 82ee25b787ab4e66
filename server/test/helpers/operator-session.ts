/**
 * Signs an operator in on /api/ops as /ops does: the account is created with the owner's command's
 * code (domains/releases/operators.repository.ts), and the answer is the Cookie header its session cookie makes.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { createOperator } from '../../src/domains/releases/operators.repository.ts';

export type SignedInOperator = { name: string; password: string; cookie: string };

export async function signInOperator(db: Db, base: string, name = `op-${randomBytes(4).toString('hex')}`): Promise<SignedInOperator> {
  const { password } = await createOperator(db, { name });
  const response = await fetch(`${base}/api/ops/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  if (response.status !== 200) throw new Error(`operator sign-in answered ${response.status}: ${await response.text()}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { name, password, cookie: setCookie.split(';')[0]! };
}
