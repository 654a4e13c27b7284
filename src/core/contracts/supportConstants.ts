/**
 * The support feature's constants, without the schemas: small enough for public pages to import
 * before any validation code is loaded. `support.ts` re-exports them with the schemas.
 */

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * What a ticket about orders asks for (docs/rules.md#support): refills and cancels are carried out
 * at once by the order rules, a speed-up or anything else reaches the team with the orders linked.
 */
export const TICKET_REQUESTS = ['refill', 'cancel', 'speed_up', 'other'] as const;
export type TicketRequest = (typeof TICKET_REQUESTS)[number];
/** The requests the shop carries out itself, through the same rules as the order history's buttons. */
export const CARRIED_OUT_REQUESTS = ['refill', 'cancel'] as const satisfies readonly TicketRequest[];
export const isCarriedOut = (r: TicketRequest | null | undefined): r is (typeof CARRIED_OUT_REQUESTS)[number] =>
  (CARRIED_OUT_REQUESTS as readonly string[]).includes(r ?? '');

export const CONSULTATION_STATUSES = ['new', 'handled'] as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUSES)[number];
export const CONTACT_STATUSES = ['new', 'read', 'replied'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * The fourteen consultation topics (docs/rules.md#support), in their fixed order. The values are stable
 * (stored and sent); the labels live in the locale files under `consultation.services.<value>`.
 */
export const CONSULTATION_SERVICES = [
  'smm',
  'google_ads',
  'youtube_ads',
  'seo',
  'logo',
  'website',
  'tv_radio',
  'facebook_instagram_ads',
  'social_engagement',
  'instagram_engagement',
  'tiktok_marketing',
  'youtube_growth',
  'general',
  'other',
] as const;
export type ConsultationService = (typeof CONSULTATION_SERVICES)[number];

/** Length bounds, shared with the database CHECK constraints. */
export const SUPPORT_LIMITS = {
  ticketTitle: 200,
  ticketDescription: 5000,
  message: 5000,
  name: 100,
  email: 254,
  phoneMin: 10,
  phoneMax: 30,
  consultationMessageMin: 10,
  subject: 200,
  contactMessage: 5000,
  search: 100,
  /** Orders one ticket may be about. */
  ticketOrders: 50,
} as const;

/** Ticket description preview in the customer's list (docs/rules.md#support). */
export const TICKET_PREVIEW_LENGTH = 100;
