import type { ComponentType } from 'react';

type Island = ComponentType<any>;

/**
 * Every island's code by name (./island.tsx), each its own chunk: a page loads the code of the
 * islands it has, when each wakes (entry-islands.tsx); dialogs load when first opened.
 */
export const ISLANDS: Record<string, () => Promise<Island>> = {
  Header: () => import('../features/layout/Header').then(({ Header }) => Header),
  ConsultationHost: () => import('../features/support/ConsultationHost').then(({ ConsultationHost }) => ConsultationHost),
  Notifications: () => import('../app/Notifications').then(({ Notifications }) => Notifications),
  ConsultButton: () => import('../features/services/ConsultButton').then(({ ConsultButton }) => ConsultButton),
  ContactForm: () => import('../features/support/ContactForm').then(({ ContactForm }) => ContactForm),
  Track: () => import('../features/tracking/TrackView').then(({ TrackView }) => TrackView),
  Order: () => import('../features/catalog/OrderPage').then(({ OrderView }) => OrderView),
  Dashboard: () => import('../features/dashboard/DashboardPage').then(({ DashboardView }) => DashboardView),
};
