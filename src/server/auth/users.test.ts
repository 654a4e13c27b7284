import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { userRoles } from '../db/schema';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { addRole, countUsers, removeRole, searchUsers } from './users';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rolesOf = async (userId: string) => (await database.db.select().from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role).sort();
const inTx = (fn: Parameters<Database['db']['transaction']>[0]) => database.db.transaction(fn);

describe('roles', () => {
  it('adds a role once (ROLE_EXISTS the second time), removes it once (NOT_FOUND the second time), and refuses unknown users', async () => {
    const { id } = await createCustomer(database.db);
    await inTx((tx) => addRole(tx, id, 'moderator'));
    expect(await rolesOf(id)).toEqual(['moderator', 'user']);
    await expect(inTx((tx) => addRole(tx, id, 'moderator'))).rejects.toMatchObject({ code: 'ROLE_EXISTS' });
    await inTx((tx) => removeRole(tx, id, 'moderator'));
    expect(await rolesOf(id)).toEqual(['user']);
    await expect(inTx((tx) => removeRole(tx, id, 'moderator'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(inTx((tx) => addRole(tx, 'no-such-user', 'admin'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('never takes the admin role from the last admin', async () => {
    await database.db.delete(userRoles).where(eq(userRoles.role, 'admin'));
    const a = await createCustomer(database.db);
    const b = await createCustomer(database.db);
    await inTx((tx) => addRole(tx, a.id, 'admin'));
    await inTx((tx) => addRole(tx, b.id, 'admin'));
    await inTx((tx) => removeRole(tx, a.id, 'admin'));
    await expect(inTx((tx) => removeRole(tx, b.id, 'admin'))).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    expect(await database.db.select().from(userRoles).where(and(eq(userRoles.userId, b.id), eq(userRoles.role, 'admin')))).toHaveLength(1);
  });
});

describe('the team’s user search', () => {
  it('finds accounts by e-mail or name (wildcards taken literally), newest first, with their roles, and counts every account', async () => {
    const before = await countUsers(database.db);
    const a = await createCustomer(database.db, { email: 'search.alpha@example.com', name: 'Nigar 50%_off' });
    const b = await createCustomer(database.db, { email: 'search.beta@example.com', name: 'Rauf' });
    await inTx((tx) => addRole(tx, b.id, 'moderator'));
    expect(await countUsers(database.db)).toBe(before + 2);

    const found = await searchUsers(database.db, 'search.');
    expect(found.total).toBe(before + 2);
    expect(found.users.map((u) => u.id)).toEqual([b.id, a.id]);
    expect(found.users[0]).toMatchObject({ email: 'search.beta@example.com', name: 'Rauf', roles: ['moderator', 'user'] });
    expect(typeof found.users[0]!.createdAt).toBe('string');

    expect((await searchUsers(database.db, '50%_')).users.map((u) => u.id)).toEqual([a.id]);
    expect((await searchUsers(database.db, '%')).users.map((u) => u.id)).toEqual([a.id]);
    expect((await searchUsers(database.db, 'RAUF')).users.map((u) => u.id)).toEqual([b.id]);
    expect((await searchUsers(database.db, '')).users.length).toBe(Math.min(before + 2, 200));
  });
});
