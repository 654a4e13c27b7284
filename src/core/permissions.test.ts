import { afterEach, describe, expect, it, vi } from 'vitest';
import { can, overrideRolePermissionsForTest, PERMISSIONS, ROLE_PERMISSIONS, type Permission } from './permissions';

afterEach(() => vi.unstubAllEnvs());

describe('the role table', () => {
  it('admins hold every permission, customers none, unknown roles none', () => {
    for (const p of PERMISSIONS) {
      expect(can(['admin'], p)).toBe(true);
      expect(can(['user'], p)).toBe(false);
      expect(can(['owner', 'toString', '__proto__'], p)).toBe(false);
    }
  });

  it('a test may put another table in place until it restores the first; the table itself cannot be changed', () => {
    const restore = overrideRolePermissionsForTest({ moderator: ['staff:enter', 'content:manage'] });
    expect(can(['moderator'], 'content:manage')).toBe(true);
    expect(can(['moderator'], 'support:answer')).toBe(false);
    expect(can(['admin'], 'settings:manage')).toBe(true);
    restore();
    expect(can(['moderator'], 'content:manage')).toBe(false);
    expect(can(['moderator'], 'support:answer')).toBe(true);
    expect(() => ((ROLE_PERMISSIONS as Record<string, unknown>).moderator = PERMISSIONS)).toThrow(TypeError);
    expect(() => (ROLE_PERMISSIONS.moderator as Permission[]).push('settings:manage')).toThrow(TypeError);
  });

  it('outside Vitest nothing can change the table at run time', () => {
    vi.stubEnv('VITEST', undefined);
    expect(() => overrideRolePermissionsForTest({ moderator: PERMISSIONS })).toThrow(/tests only/);
    expect(can(['moderator'], 'settings:manage')).toBe(false);
  });
});
