import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../testing/db';
import { createServiceName, deleteParamTexts, deleteServiceName, listServiceNames, saveParamTexts, updateServiceName } from './manage';
import { loadParamOverrides } from './paramTexts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const blank = { label: null, hint: null, placeholder: null, required: null, invalid: null };

describe('the team’s catalogue wording', () => {
  it('service names: az and tr together; a second entry for the same words is DUPLICATE; a name for an unknown service SERVICE_NOT_FOUND', async () => {
    await createServiceName(database.db, { apiServiceName: 'Followers', az: 'İzləyicilər', tr: 'Takipçiler', serviceId: null });
    await expect(createServiceName(database.db, { apiServiceName: 'Followers', az: 'x', tr: 'y', serviceId: null })).rejects.toMatchObject({ code: 'DUPLICATE' });
    await expect(createServiceName(database.db, { apiServiceName: 'Likes', az: 'x', tr: 'y', serviceId: 'no-such-service' })).rejects.toMatchObject({ code: 'SERVICE_NOT_FOUND' });
    await createServiceName(database.db, { apiServiceName: 'Views', az: 'Baxışlar', tr: 'İzlenmeler', serviceId: null });
    await expect(updateServiceName(database.db, 'Views', { apiServiceName: 'Followers', az: 'a', tr: 'b', serviceId: null })).rejects.toMatchObject({ code: 'DUPLICATE' });
    await updateServiceName(database.db, 'Views', { apiServiceName: 'Video views', az: 'Video baxışları', tr: 'Video izlenmeleri', serviceId: null });
    await expect(updateServiceName(database.db, 'Views', { apiServiceName: 'Views', az: 'a', tr: 'b', serviceId: null })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listServiceNames(database.db)).map(({ apiServiceName, az, tr }) => ({ apiServiceName, az, tr }))).toEqual([
      { apiServiceName: 'Followers', az: 'İzləyicilər', tr: 'Takipçiler' },
      { apiServiceName: 'Video views', az: 'Video baxışları', tr: 'Video izlenmeleri' },
    ]);
    await deleteServiceName(database.db, 'Followers');
    await expect(deleteServiceName(database.db, 'Followers')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('param texts: saved per kind and language; saving every text blank removes the override', async () => {
    await saveParamTexts(database.db, { kind: 'username', lang: 'tr', ...blank, label: 'Kullanıcı adı' });
    expect(await loadParamOverrides(database.db)).toEqual([{ kind: 'username', lang: 'tr', ...blank, label: 'Kullanıcı adı' }]);
    await saveParamTexts(database.db, { kind: 'username', lang: 'tr', ...blank });
    expect(await loadParamOverrides(database.db)).toEqual([]);
    await expect(deleteParamTexts(database.db, 'username', 'tr')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
