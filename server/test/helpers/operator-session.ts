/**
 * Signs an operator in on the operator origin as the console does: the account is created with the
 * owner's command's code (domains/operators/operator-admin.repository.ts), signed in with its password,
 * the second factor set up (a secret, confirmed by a first code), so the session may do everything an
 * operator may and its code counts as fresh for release actions. The answer holds the Cookie header,
 * the TOTP secret (for later codes) and the recovery codes.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { createOperator } from '../../src/domains/operators/operator-admin.repository.ts';
import { totpCode } from '../../src/domains/operators/second-factor.ts';

export type SignedInOperator = { name: string; password: string; cookie: string; secret: string; recoveryCodes: string[] };

/** A POST of JSON to the operator origin as its console sends it (its own Origin). */
export function opsPost(opsUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${opsUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(opsUrl).origin, ...headers },
    body: JSON.stringify(body),
  });
}

const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

type Answer = { data: { secret: string; recoveryCodes: string[] } };

async function answer(response: Response, what: string): Promise<Answer> {
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Answer;
}

/** Creates an operator and signs it in with a second factor (signInWithSecondFactor); `at`: the clock the server reads. */
export async function signInOperator(
  db: Db,
  opsUrl: string,
  name = `op-${randomBytes(4).toString('hex')}`,
  headers: Record<string, string> = {},
  at: () => Date = () => new Date(),
): Promise<SignedInOperator> {
  const { password } = await createOperator(db, { name });
  return signInWithSecondFactor(opsUrl, name, password, headers, at);
}

/**
 * Signs an operator without a second factor in with its password (a session that may only set one
 * up) and sets it up over HTTP, as the console does: after it, the session may do everything.
 */
export async function signInWithSecondFactor(
  opsUrl: string,
  name: string,
  password: string,
  headers: Record<string, string> = {},
  at: () => Date = () => new Date(),
): Promise<SignedInOperator> {
  const signIn = await opsPost(opsUrl, '/api/ops/session', { name, password }, headers);
  await answer(signIn, 'operator sign-in');
  const cookie = cookieOf(signIn);
  const setup = await answer(await opsPost(opsUrl, '/api/ops/second-factor', {}, { cookie, ...headers }), 'second-factor set-up');
  const secret = setup.data.secret;
  const confirmed = await answer(
    await opsPost(opsUrl, '/api/ops/second-factor/confirm', { code: totpCode(secret, at()) }, { cookie, ...headers }),
    'second-factor confirmation',
  );
  return { name, password, cookie, secret, recoveryCodes: confirmed.data.recoveryCodes };
}
