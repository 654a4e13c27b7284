import { replace, type RouteObject } from 'react-router';
import { isLanguage } from '../../core/i18n';
import { PublicLayout } from '../features/layout/PublicLayout';
import { preferredLanguage } from '../lib/language';
import { ErrorPage } from './ErrorPage';
import { RootLayout } from './RootLayout';
import { page, type PageModule } from './page';
import { SITE_ROUTE_ID, siteLoader, siteShouldRevalidate } from './site';

/**
 * Page modules by their path under src/web. A page route's id is that path, so the server finds
 * the route's built chunk in Vite's manifest and preloads it (src/server/web/renderer.ts).
 */
const pages = {
  'features/home/HomePage.tsx': () => import('../features/home/HomePage'),
  'features/about/AboutPage.tsx': () => import('../features/about/AboutPage'),
  'features/services/ServicesPage.tsx': () => import('../features/services/ServicesPage'),
  'features/services/ServiceDetailPage.tsx': () => import('../features/services/ServiceDetailPage'),
  'features/contact/ContactPage.tsx': () => import('../features/contact/ContactPage'),
  'features/catalog/OrderPage.tsx': () => import('../features/catalog/OrderPage'),
  'features/catalog/PricesPage.tsx': () => import('../features/catalog/PricesPage'),
  'features/legal/TermsPage.tsx': () => import('../features/legal/TermsPage'),
  'features/legal/PrivacyPage.tsx': () => import('../features/legal/PrivacyPage'),
  'features/auth/AuthPage.tsx': () => import('../features/auth/AuthPage'),
  'features/auth/ResetPasswordPage.tsx': () => import('../features/auth/ResetPasswordPage'),
  'features/auth/PasswordRecoveryPage.tsx': () => import('../features/auth/PasswordRecoveryPage'),
  'features/auth/DevMailboxPage.tsx': () => import('../features/auth/DevMailboxPage'),
  'features/auth/MaintenancePage.tsx': () => import('../features/auth/MaintenancePage'),
  'features/dashboard/DashboardPage.tsx': () => import('../features/dashboard/DashboardPage'),
  'features/tracking/TrackPage.tsx': () => import('../features/tracking/TrackPage'),
  'features/payments/PaymentSuccessPage.tsx': () => import('../features/payments/PaymentSuccessPage'),
  'features/payments/PaymentErrorPage.tsx': () => import('../features/payments/PaymentErrorPage'),
  'features/admin/AdminLayout.tsx': () => import('../features/admin/AdminLayout'),
  'features/admin/AdminDashboardPage.tsx': () => import('../features/admin/AdminDashboardPage'),
  'features/admin/AdminOrdersPage.tsx': () => import('../features/admin/AdminOrdersPage'),
  'features/admin/AdminServicesPage.tsx': () => import('../features/admin/AdminServicesPage'),
  'features/admin/AdminBlogPage.tsx': () => import('../features/admin/AdminBlogPage'),
  'features/admin/AdminFaqPage.tsx': () => import('../features/admin/AdminFaqPage'),
  'features/admin/AdminUsersPage.tsx': () => import('../features/admin/AdminUsersPage'),
  'features/admin/AdminSettingsPage.tsx': () => import('../features/admin/AdminSettingsPage'),
  'features/admin/AdminAuditPage.tsx': () => import('../features/admin/AdminAuditPage'),
  'features/admin/AdminProvidersPage.tsx': () => import('../features/admin/AdminProvidersPage'),
  'features/admin/AdminAnalyticsPage.tsx': () => import('../features/admin/AdminAnalyticsPage'),
  'features/admin/AdminPaymentsPage.tsx': () => import('../features/admin/AdminPaymentsPage'),
  'features/blog/BlogPage.tsx': () => import('../features/blog/BlogPage'),
  'features/blog/BlogPostPage.tsx': () => import('../features/blog/BlogPostPage'),
  'features/blog/FaqPage.tsx': () => import('../features/blog/FaqPage'),
  'features/apiDocs/ApiDocsPage.tsx': () => import('../features/apiDocs/ApiDocsPage'),
  'features/support/AdminSupportPage.tsx': () => import('../features/support/AdminSupportPage'),
  'features/support/AdminContactMessagesPage.tsx': () => import('../features/support/AdminContactMessagesPage'),
  'features/support/AdminConsultationsPage.tsx': () => import('../features/support/AdminConsultationsPage'),
  'app/NotFoundPage.tsx': () => import('./NotFoundPage'),
} satisfies Record<string, () => Promise<PageModule>>;

/** A page route whose id is its module path (suffix `#…` when a module serves two routes). */
const pageRoute = (module: keyof typeof pages, suffix = '') => ({ id: module + suffix, ...page(pages[module]) });

/** The admin pages inside the admin layout (which holds the admin gate); `suffix` keeps route ids unique. */
const adminPages = (suffix: string): RouteObject[] => [
  { index: true, ...pageRoute('features/admin/AdminDashboardPage.tsx', suffix) },
  { path: 'orders', ...pageRoute('features/admin/AdminOrdersPage.tsx', suffix) },
  { path: 'services', ...pageRoute('features/admin/AdminServicesPage.tsx', suffix) },
  { path: 'service-names', ...pageRoute('features/admin/AdminServicesPage.tsx', `#names${suffix}`) },
  { path: 'blog', ...pageRoute('features/admin/AdminBlogPage.tsx', suffix) },
  { path: 'faq', ...pageRoute('features/admin/AdminFaqPage.tsx', suffix) },
  { path: 'users', ...pageRoute('features/admin/AdminUsersPage.tsx', suffix) },
  { path: 'settings', ...pageRoute('features/admin/AdminSettingsPage.tsx', suffix) },
  { path: 'audit', ...pageRoute('features/admin/AdminAuditPage.tsx', suffix) },
  { path: 'providers', ...pageRoute('features/admin/AdminProvidersPage.tsx', suffix) },
  { path: 'analytics', ...pageRoute('features/admin/AdminAnalyticsPage.tsx', suffix) },
  { path: 'payments', ...pageRoute('features/admin/AdminPaymentsPage.tsx', suffix) },
  { path: 'support', ...pageRoute('features/support/AdminSupportPage.tsx', suffix) },
  { path: 'contact-messages', ...pageRoute('features/support/AdminContactMessagesPage.tsx', suffix) },
  { path: 'consultations', ...pageRoute('features/support/AdminConsultationsPage.tsx', suffix) },
];

/**
 * The route table. Public pages live under `/:lang`; a first segment that is not a language gets
 * the stored language put in front (spec 01 §2). Routes the specs list without a prefix sit at
 * the top level. Every page is its own chunk. A redirect replaces the history entry (the server
 * answers it with 302).
 */
export const routes: RouteObject[] = [
  {
    id: SITE_ROUTE_ID,
    // The site settings every page shows (name, description, contacts).
    loader: siteLoader,
    shouldRevalidate: siteShouldRevalidate,
    Component: RootLayout,
    ErrorBoundary: ErrorPage,
    children: [
      {
        index: true,
        loader: ({ request }) => replace(`/${preferredLanguage(request)}${new URL(request.url).search}`),
      },
      {
        path: ':lang',
        loader: ({ params, request }) => {
          if (isLanguage(params.lang)) return null;
          const url = new URL(request.url);
          return replace(`/${preferredLanguage(request)}${url.pathname}${url.search}`);
        },
        children: [
          {
            id: 'public',
            Component: PublicLayout,
            children: [
              { index: true, ...pageRoute('features/home/HomePage.tsx') },
              { path: 'about', ...pageRoute('features/about/AboutPage.tsx') },
              { path: 'services', ...pageRoute('features/services/ServicesPage.tsx') },
              { path: 'services/:id', ...pageRoute('features/services/ServiceDetailPage.tsx') },
              { path: 'contact', ...pageRoute('features/contact/ContactPage.tsx') },
              { path: 'order', ...pageRoute('features/catalog/OrderPage.tsx') },
              { path: 'prices', ...pageRoute('features/catalog/PricesPage.tsx') },
              { path: 'dashboard', ...pageRoute('features/dashboard/DashboardPage.tsx') },
              { path: 'maintenance', ...pageRoute('features/auth/MaintenancePage.tsx') },
              { path: 'blog', ...pageRoute('features/blog/BlogPage.tsx') },
              { path: 'blog/:slug', ...pageRoute('features/blog/BlogPostPage.tsx') },
              { path: 'faq', ...pageRoute('features/blog/FaqPage.tsx') },
              { path: 'api', ...pageRoute('features/apiDocs/ApiDocsPage.tsx') },
              { path: '*', ...pageRoute('app/NotFoundPage.tsx') },
            ],
          },
          { path: 'admin', ...pageRoute('features/admin/AdminLayout.tsx'), children: adminPages('') },
        ],
      },
      // The admin area without the language prefix, shown in the stored language.
      { path: 'admin', ...pageRoute('features/admin/AdminLayout.tsx', '#unprefixed'), children: adminPages('#unprefixed') },
      {
        // Unprefixed public pages, shown in the stored language.
        id: 'public-unprefixed',
        Component: PublicLayout,
        children: [
          { path: 'terms', ...pageRoute('features/legal/TermsPage.tsx') },
          { path: 'privacy', ...pageRoute('features/legal/PrivacyPage.tsx') },
          { path: 'auth', ...pageRoute('features/auth/AuthPage.tsx') },
          { path: 'reset-password', ...pageRoute('features/auth/ResetPasswordPage.tsx') },
          { path: 'password-recovery', ...pageRoute('features/auth/PasswordRecoveryPage.tsx') },
          { path: 'dev/mailbox', ...pageRoute('features/auth/DevMailboxPage.tsx') },
          { path: 'track', ...pageRoute('features/tracking/TrackPage.tsx') },
          { path: 'payment-success', ...pageRoute('features/payments/PaymentSuccessPage.tsx') },
          { path: 'payment-error', ...pageRoute('features/payments/PaymentErrorPage.tsx') },
        ],
      },
    ],
  },
];
