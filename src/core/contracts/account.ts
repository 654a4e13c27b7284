import { z } from 'zod';
import { roleSchema } from './admin';

/** The signed-in person as the browser sees them: `GET /api/me` answers `{ user: Me | null }`. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  roles: z.array(roleSchema),
  balanceCents: z.number().int(),
});
export type Me = z.infer<typeof meSchema>;
