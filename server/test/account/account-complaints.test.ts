/**
 * Complaints in the account: filed with photos for a delivered line (checked by their bytes and
 * size), listed with their state and the 30-day deadline, photos shown to their owner alone, and the
 * operator's answer in the audit log.
 * Real HTTP against a real database (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountOrderDetail, Complaint } from '@shop/shared-kernel/contract';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { accountArea } from '../helpers/account-area.ts';
import { expectErrorShape, type TestApi } from '../helpers/test-api.ts';

const area = accountArea();
const { newUser, placeOrder, delivered } = area;
let api: TestApi;

beforeAll(async () => {
  ({ api } = await area.start());
});
afterAll(async () => {
  await api?.close();
});

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 2)]);

function complaintForm(token: string, itemId: number, photos: { data: Buffer; name: string; type: string }[] = []) {
  const form = new FormData();
  form.set('orderToken', token);
  form.set('itemId', String(itemId));
  form.set('reason', 'damaged');
  form.set('description', 'Vrece prišlo roztrhnuté, polovica obsahu chýba.');
  for (const p of photos) form.append('photos', new Blob([new Uint8Array(p.data)], { type: p.type }), p.name);
  return form;
}
const postComplaint = (form: FormData, token?: string) =>
  fetch(`${api.baseUrl}/api/account/complaints`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('complaints', () => {
  it('files a complaint with photos for a delivered line; lists it with state and the 30-day deadline; photos only for the owner', async () => {
    const { token } = await newUser('rk');
    const other = await newUser('rk2');
    const order = await delivered(token);
    const itemId = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data.lines[1]!.itemId;
    const res = await postComplaint(
      complaintForm(order.token, itemId, [
        { data: JPEG, name: 'a.jpg', type: 'image/jpeg' },
        { data: PNG, name: 'b.png', type: 'image/png' },
      ]),
      token,
    );
    expect(res.status).toBe(201);
    const complaint = ((await res.json()) as { data: Complaint }).data;
    expect(complaint).toMatchObject({ orderNumber: order.number, itemId, reason: 'damaged', state: 'received' });
    expect(complaint.photos.map((p) => p.contentType)).toEqual(['image/jpeg', 'image/png']);
    expect(Date.parse(complaint.settleBy) - Date.parse(complaint.createdAt)).toBe(30 * 86_400_000);
    const list = await api.get<{ data: Complaint[] }>('/api/account/complaints', token);
    expect(list.body.data.map((c) => c.id)).toEqual([complaint.id]);
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', other.token)).body.data).toEqual([]);

    const photoUrl = `/api/account/complaints/${complaint.id}/photos/${complaint.photos[0]!.id}`;
    const mine = await fetch(`${api.baseUrl}${photoUrl}`, { headers: { authorization: `Bearer ${token}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await mine.arrayBuffer()).equals(JPEG)).toBe(true);
    expect((await api.get(photoUrl, other.token)).status).toBe(404);
    expect((await api.get(photoUrl)).status).toBe(401);

    const moved = await api.asOperator('POST', `/api/operator/complaints/${complaint.id}/state`, {
      state: 'accepted',
      resolution: 'Vymeníme tovar.',
    });
    expect(moved.status).toBe(200);
    const { name } = await api.operator();
    expect((await releaseIdentities(api.db).recent(5)).map((row) => `${row.actor} ${row.action} ${row.detail}`)).toContain(
      `${name} complaint-state reklamácia ${complaint.id} → accepted`,
    );
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', token)).body.data[0]).toMatchObject({
      state: 'accepted',
      resolution: 'Vymeníme tovar.',
    });
  });

  it('checks photos by their bytes and size, and refuses lines not delivered', async () => {
    const { token } = await newUser('rk3');
    const order = await delivered(token);
    const itemId = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${order.token}`, token)).body.data.lines[0]!.itemId;
    const fake = await postComplaint(
      complaintForm(order.token, itemId, [{ data: Buffer.from('<svg onload=alert(1)>'), name: 'x.jpg', type: 'image/jpeg' }]),
      token,
    );
    expect(fake.status).toBe(422);
    expectErrorShape(await fake.json(), 'validation_failed');
    const big = Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024, 3)]);
    const tooBig = await postComplaint(complaintForm(order.token, itemId, [{ data: big, name: 'big.jpg', type: 'image/jpeg' }]), token);
    expect(tooBig.status).toBe(413);
    expectErrorShape(await tooBig.json(), 'bad_request');
    const short = complaintForm(order.token, itemId);
    short.set('description', 'zlé');
    expect((await postComplaint(short, token)).status).toBe(422);
    const notYet = await placeOrder(token);
    const notYetItem = (await api.get<{ data: AccountOrderDetail }>(`/api/account/orders/${notYet.token}`, token)).body.data.lines[0]!
      .itemId;
    expect((await postComplaint(complaintForm(notYet.token, notYetItem), token)).status).toBe(409);
    expect((await api.get<{ data: Complaint[] }>('/api/account/complaints', token)).body.data).toEqual([]);
    expect((await postComplaint(complaintForm(order.token, itemId))).status).toBe(401);
  });
});
