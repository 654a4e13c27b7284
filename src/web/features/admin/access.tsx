import { createContext, useContext, type ReactNode } from 'react';
import { can, type Permission } from '../../../core/permissions';

const RolesContext = createContext<readonly string[]>([]);

/** The signed-in team member's roles, for the admin pages below it. */
export function StaffRoles({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  return <RolesContext.Provider value={roles}>{children}</RolesContext.Provider>;
}

/** The signed-in team member's roles. */
export const useStaffRoles = (): readonly string[] => useContext(RolesContext);

/** Whether the signed-in role may use a permission (core/permissions.ts); the server checks again. */
export function useCan(): (permission: Permission) => boolean {
  const roles = useContext(RolesContext);
  return (permission) => can(roles, permission);
}
