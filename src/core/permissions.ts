/** The roles a person can hold; the account contract's `roleSchema` is built on them. */
export const ROLES = ['user', 'moderator', 'admin'] as const;

/**
 * Who may do what in the team's area: the one table of role → permissions, read by the server's
 * guards and by the admin shell (which only shows what the signed-in role may use).
 *
 * A moderator is support staff: tickets, contact messages and consultation requests, and a
 * read-only view of orders and users. Money (balances, refunds, payments, resubmits), roles,
 * settings, the catalogue and content stay with admins. Deleting a contact message is a deletion
 * and so admin-only too, as is the development mailbox.
 *
 * This table alone decides: each route names the permission it needs (the team's API in
 * server/admin/access.ts, the development mailbox in server/mail/routes.ts) and no handler checks
 * a role of its own.
 */
export const PERMISSIONS = [
  /** Open the team's area at all (/admin, /api/admin/*). */
  'staff:enter',
  'support:answer',
  'support:delete',
  'orders:read',
  /** Resync, refund, resubmit, refill and cancel: anything that moves an order or money. */
  'orders:manage',
  'users:read',
  'users:roles',
  /**
   * Remove another account's second factor when its owner lost both the phone and the recovery
   * codes: it signs that account out everywhere, and the next sign-in is with the password alone.
   */
  'users:reset-second-factor',
  'balances:write',
  'payments:read',
  /** Book a chargeback: a completed top-up the bank took back leaves the balance, even below zero. */
  'payments:manage',
  'dashboard:read',
  'audit:read',
  'settings:manage',
  'catalog:manage',
  'content:manage',
  /** Add, edit, disable and test SMM providers (their keys are write-only). */
  'providers:manage',
  /** Read the development mailbox (outside production only): its reset links open any account. */
  'mailbox:read',
  /** Write and browse as usual while maintenance_mode is on. */
  'maintenance:pass',
  /** Customers' discounts and customer groups (docs/rules.md#discounts). */
  'prices:manage',
  /** The owner's figures: sales, cost, profit, top-ups by period, their breakdowns and exports. */
  'analytics:read',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
type Role = (typeof ROLES)[number];

export type RolePermissions = Readonly<Record<Role, readonly Permission[]>>;

const frozen = (list: readonly Permission[]) => Object.freeze([...list]);

export const ROLE_PERMISSIONS: RolePermissions = Object.freeze({
  user: frozen([]),
  moderator: frozen(['staff:enter', 'support:answer', 'orders:read', 'users:read']),
  admin: frozen(PERMISSIONS),
});

/** The table `can` reads: ROLE_PERMISSIONS, unless a test has put another in its place. */
let table: RolePermissions = ROLE_PERMISSIONS;

/** Whether any of the roles grants the permission (unknown role names grant nothing). */
export function can(roles: readonly string[], permission: Permission): boolean {
  return roles.some((role) => Object.hasOwn(table, role) && table[role as Role].includes(permission));
}

/** The roles that grant the permission (who is told of work that needs it, e.g. a new ticket). */
export function rolesWith(permission: Permission): Role[] {
  return (Object.keys(table) as Role[]).filter((role) => table[role].includes(permission));
}

/**
 * Tests only: `can` reads `roles` in place of ROLE_PERMISSIONS for the roles named, until the
 * returned function puts the table back. It lets a test give one permission to a role and see
 * every route that needs it open, and close without it. Outside Vitest (`process.env.VITEST`)
 * it throws, so neither the server nor the browser can change who may do what at run time.
 */
export function overrideRolePermissionsForTest(roles: Partial<RolePermissions>): () => void {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (!env?.VITEST) throw new Error('overrideRolePermissionsForTest is for tests only');
  const before = table;
  table = { ...before, ...roles };
  return () => {
    table = before;
  };
}
