import {
  BarChart3,
  CreditCard,
  HelpCircle,
  LayoutDashboard,
  LifeBuoy,
  Mail,
  MessagesSquare,
  Newspaper,
  Package,
  PlugZap,
  ScrollText,
  Settings,
  ShoppingCart,
  Users,
} from 'lucide-react';
import type { ComponentType } from 'react';
import { can, type Permission } from '../../../core/permissions';

export interface NavItem {
  key: string;
  path: string;
  icon: ComponentType<{ className?: string }>;
  /** What the section needs; sections a role may not use are not shown. */
  permission: Permission;
  /** Other paths that belong to the same entry (the services page's names tab). */
  also?: string[];
}

export const NAV: NavItem[] = [
  { key: 'dashboard', path: '', icon: LayoutDashboard, permission: 'dashboard:read' },
  { key: 'analytics', path: '/analytics', icon: BarChart3, permission: 'analytics:read' },
  { key: 'orders', path: '/orders', icon: ShoppingCart, permission: 'orders:read' },
  { key: 'payments', path: '/payments', icon: CreditCard, permission: 'payments:read' },
  { key: 'services', path: '/services', icon: Package, permission: 'catalog:manage', also: ['/service-names'] },
  { key: 'blog', path: '/blog', icon: Newspaper, permission: 'content:manage' },
  { key: 'faq', path: '/faq', icon: HelpCircle, permission: 'content:manage' },
  { key: 'support', path: '/support', icon: LifeBuoy, permission: 'support:answer' },
  { key: 'contactMessages', path: '/contact-messages', icon: Mail, permission: 'support:answer' },
  { key: 'consultations', path: '/consultations', icon: MessagesSquare, permission: 'support:answer' },
  { key: 'users', path: '/users', icon: Users, permission: 'users:read' },
  { key: 'providers', path: '/providers', icon: PlugZap, permission: 'providers:manage' },
  { key: 'settings', path: '/settings', icon: Settings, permission: 'settings:manage' },
  { key: 'audit', path: '/audit', icon: ScrollText, permission: 'audit:read' },
];

/** The sections of the admin area the roles may use, in menu order. */
export const navFor = (roles: readonly string[]) => NAV.filter((item) => can(roles, item.permission));

/**
 * The section a page of the admin area belongs to, by its path below the admin home (`/settings`,
 * `/service-names`); none for the home itself, which every team member may open (admins see the
 * figures, the others their sections).
 */
export function sectionOf(rest: string): NavItem | undefined {
  const path = rest.replace(/\/+$/, '');
  return NAV.find((item) => item.path !== '' && (item.path === path || (item.also?.includes(path) ?? false)));
}
