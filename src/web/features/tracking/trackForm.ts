import { z } from 'zod';

/**
 * The tracking search: any number that is not blank is looked up, so that one the contract's
 * `orderNumberSchema` would refuse is answered by the server as not found (docs/rules.md#tracking).
 */
export const trackFormSchema = z.object({ order: z.string().trim().min(1, 'required') });
export type TrackForm = z.infer<typeof trackFormSchema>;
