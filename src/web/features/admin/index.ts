/** The admin area's page frame and permission check, for the team's pages other features own (docs/ARCHITECTURE.md#layers). */
export { useCan } from './access';
export { AdminPage, useAdminBase } from './ui';
