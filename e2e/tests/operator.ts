/**
 * The operator in the end-to-end tests: the operator console on its own origin (E2E_PORT+3), an
 * operator account made with the owner's command, signed in with its password and a second factor
 * set up as a new operator would (a QR code's key, a first code), in the browser or over HTTP.
 * Each test makes its own operator, so no code is taken twice within one time step.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { E2E_DATA_DIR, SHOP_PORT } from '../playwright.config.ts';

/** The operator origin of the e2e shop (serve.mjs: OPS_PORT = E2E_PORT+3). */
export const OPS_PORT = SHOP_PORT + 3;
export const OPS_URL = `http://localhost:${OPS_PORT}`;
/** The operator's session cookie (the operator origin's, `__Host-`). */
export const OPERATOR_COOKIE = '__Host-shop_ops';

export type Operator = { name: string; password: string };
export type SignedIn = Operator & { secret: string; cookie: string };

const repo = join(import.meta.dirname, '..', '..');

/** The code an authenticator app shows for `secret` now (RFC 6238: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, at = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** An operator made with the owner's command, as the README says (`npm run credentials -- operator-create`). */
export function createOperator(
  name = `op-${randomBytes(3).toString('hex')}`,
  dataDir = E2E_DATA_DIR,
  env: Record<string, string> = {},
): Operator {
  const password = `heslo-${name}-${Date.now()}`;
  const result = spawnSync(process.execPath, ['dist/release/credentials-cli.js', 'operator-create', name], {
    cwd: join(repo, 'server'),
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env, OPERATOR_PASSWORD: password },
  });
  expect(result.status, result.stderr).toBe(0);
  return { name, password };
}

/**
 * Signs a new operator in on the console's form and sets up the second factor as the console asks
 * (the key shown beside the QR code, a first code), leaving the recovery codes behind: the console's
 * first page is shown. Answers the secret for later codes.
 */
export async function signInFirstTime(
  page: Page,
  operator: Operator,
  opsUrl = OPS_URL,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto(`${opsUrl}/ops`);
  await page.getByLabel('Meno', { exact: true }).fill(operator.name);
  await page.getByLabel('Heslo', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await page.getByRole('button', { name: 'Nastaviť druhý faktor' }).click();
  await expect(page.getByRole('img', { name: 'QR kód pre overovaciu aplikáciu' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Kód z aplikácie').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Potvrdiť' }).click();
  const codes = page.getByTestId('recovery-codes').locator('code');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  await page.getByRole('button', { name: 'Kódy mám uložené, pokračovať' }).click();
  await expect(page.getByTestId('ops-operator')).toContainText(operator.name);
  return { secret, recoveryCodes };
}

const cookieOf = (setCookie: string | null) => (setCookie ?? '').split(';')[0]!;

/** A POST of JSON to the operator origin as the console sends it. */
export function opsPost(path: string, body: unknown, headers: Record<string, string> = {}, opsUrl = OPS_URL): Promise<Response> {
  return fetch(`${opsUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(opsUrl).origin, ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A new operator signed in over HTTP with a second factor set up (its cookie in `cookie`, to send as
 * a header: the `__Host-` cookie is the operator origin's alone).
 */
export async function operatorSession(opsUrl = OPS_URL, dataDir = E2E_DATA_DIR, env: Record<string, string> = {}): Promise<SignedIn> {
  const operator = createOperator(undefined, dataDir, env);
  const signIn = await opsPost('/api/ops/session', operator, {}, opsUrl);
  expect(signIn.status, await signIn.clone().text()).toBe(200);
  const cookie = cookieOf(signIn.headers.get('set-cookie'));
  const setup = await opsPost('/api/ops/second-factor', {}, { cookie }, opsUrl);
  expect(setup.status).toBe(200);
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const confirmed = await opsPost('/api/ops/second-factor/confirm', { code: totpCode(secret) }, { cookie }, opsUrl);
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { ...operator, secret, cookie };
}

/** A GET on the operator origin with the operator's cookie. */
export const opsGet = (path: string, operator: SignedIn, opsUrl = OPS_URL) =>
  fetch(`${opsUrl}${path}`, { headers: { cookie: operator.cookie } });

/** A metrics credential made with the owner's command (`npm run credentials -- metrics-create`): Prometheus's bearer token. */
export function metricsCredential(dataDir = E2E_DATA_DIR, env: Record<string, string> = {}): string {
  const result = spawnSync(
    process.execPath,
    ['dist/release/credentials-cli.js', 'metrics-create', `e2e-metrics-${randomBytes(3).toString('hex')}`],
    {
      cwd: join(repo, 'server'),
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout
    .split('\n')
    .find((line) => line.startsWith('shopmet_'))!
    .trim();
}
