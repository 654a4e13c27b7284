import type { z } from 'zod';
import type { roleSchema } from './contracts/admin';

/**
 * Who may do what in the team's area: the one table of role → permissions, read by the server's
 * guards and by the admin shell (which only shows what the signed-in role may use).
 *
 * A moderator is support staff: tickets, contact messages and consultation requests, and a
 * read-only view of orders and users. Money (balances, refunds, payments, resubmits), roles,
 * settings, the catalogue and content stay with admins. Deleting a contact message is a deletion
 * and so admin-only too.
 */
export const PERMISSIONS = [
  /** Open the team's area at all (/admin, /api/admin/*). */
  'staff:enter',
  'support:answer',
  'support:delete',
  'orders:read',
  /** Resync, refund and resubmit: anything that moves an order or money. */
  'orders:manage',
  'users:read',
  'users:roles',
  'balances:write',
  'payments:read',
  'dashboard:read',
  'audit:read',
  'settings:manage',
  'catalog:manage',
  'content:manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
type Role = z.infer<typeof roleSchema>;

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  user: [],
  moderator: ['staff:enter', 'support:answer', 'orders:read', 'users:read'],
  admin: PERMISSIONS,
};

/** Whether any of the roles grants the permission (unknown role names grant nothing). */
export function can(roles: readonly string[], permission: Permission): boolean {
  return roles.some((role) => Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role as Role].includes(permission));
}
