import { ChevronsLeft, ChevronsRight, ExternalLink, LogOut, Menu, TrendingUp, X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Link, NavLink, Outlet, useLoaderData, useLocation } from 'react-router';
import type { Language } from '../../../core/i18n';
import { can } from '../../../core/permissions';
import type { PageMeta } from '../../app/page';
import { cn } from '../../components/ui/cn';
import { type Me, useSignOut } from '../auth';
import { Footer, Header, LanguageSwitcher, Logo } from '../layout';
import { StaffRoles } from './access';
import { AdminGate } from './AdminGate';
import { navFor, sectionOf } from './nav';
import { AdminPage, NoAccess, Panel, useAdminBase } from './ui';

export { loader } from './AdminGate';
export const ns = ['admin', 'auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:title')} · ${site.site_name}` });

const COLLAPSED_KEY = 'artim.admin.sidebar-collapsed';

export { useAdminBase };

/** The admin area's frame inside the admin gate: a collapsible sidebar (a drawer on phones), a top bar, the page. */
export default function AdminLayout() {
  const { me, lang } = useLoaderData<{ me: Me; lang: Language }>();
  if (!can(me.roles, 'staff:enter')) {
    // Customers see the refusal inside the public site's frame.
    return (
      <div className="flex min-h-screen flex-col bg-white">
        <Header />
        <div className="flex flex-1 flex-col">
          <AdminGate me={me} lang={lang}>
            {null}
          </AdminGate>
        </div>
        <Footer />
      </div>
    );
  }
  return (
    <AdminGate me={me} lang={lang}>
      <StaffRoles roles={me.roles}>
        <Shell me={me} />
      </StaffRoles>
    </AdminGate>
  );
}

function Shell({ me }: { me: Me }) {
  const { t } = useTranslation('admin');
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const [drawer, setDrawer] = useState(false);

  useEffect(() => {
    try {
      setCollapsed(window.localStorage.getItem(COLLAPSED_KEY) === 'true');
    } catch {
      // storage disabled: start expanded
    }
  }, []);
  useEffect(() => setDrawer(false), [location.key]);

  const toggle = () => {
    setCollapsed((c) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, String(!c));
      } catch {
        // storage disabled: the choice lasts for this page
      }
      return !c;
    });
  };

  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900">
      <aside
        className={cn('sticky top-0 hidden h-screen shrink-0 flex-col border-r border-slate-800 bg-slate-900 transition-[width] duration-200 lg:flex', collapsed ? 'w-[72px]' : 'w-64')}
        data-collapsed={collapsed}
      >
        <SidebarContent collapsed={collapsed} roles={me.roles} />
        <div className="border-t border-white/10 p-3">
          <button
            type="button"
            onClick={toggle}
            aria-expanded={!collapsed}
            aria-label={collapsed ? t('layout.expand') : t('layout.collapse')}
            className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/5 hover:text-white"
          >
            {collapsed ? <ChevronsRight className="size-5 shrink-0" aria-hidden="true" /> : <ChevronsLeft className="size-5 shrink-0" aria-hidden="true" />}
            {collapsed ? null : <span>{t('layout.collapse')}</span>}
          </button>
        </div>
      </aside>

      <RadixDialog.Root open={drawer} onOpenChange={setDrawer}>
        <RadixDialog.Portal>
          <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-sm lg:hidden" />
          <RadixDialog.Content aria-describedby={undefined} className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-slate-900 shadow-xl lg:hidden" data-testid="admin-drawer">
            <RadixDialog.Title className="sr-only">{t('layout.navigation')}</RadixDialog.Title>
            <RadixDialog.Close className="absolute right-3 top-4 rounded-lg p-1.5 text-slate-300 hover:bg-white/10 hover:text-white" aria-label={t('common.close')}>
              <X className="size-5" aria-hidden="true" />
            </RadixDialog.Close>
            <SidebarContent collapsed={false} roles={me.roles} />
          </RadixDialog.Content>
        </RadixDialog.Portal>
      </RadixDialog.Root>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
          <button
            type="button"
            onClick={() => setDrawer(true)}
            aria-label={t('layout.openMenu')}
            aria-expanded={drawer}
            className="inline-flex size-10 items-center justify-center rounded-xl border border-slate-200 text-slate-700 hover:bg-slate-50 lg:hidden"
          >
            <Menu className="size-5" aria-hidden="true" />
          </button>
          <p className="truncate text-sm font-semibold text-slate-500">{t('layout.area')}</p>
          <div className="ml-auto flex items-center gap-2">
            <Link to="/" className="hidden items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-slate-600 hover:bg-slate-100 hover:text-slate-900 sm:inline-flex">
              <ExternalLink className="size-4" aria-hidden="true" />
              {t('layout.viewSite')}
            </Link>
            <LanguageSwitcher />
            <span className="hidden max-w-48 truncate rounded-lg bg-slate-100 px-3 py-2 text-sm font-medium text-slate-700 md:inline" title={me.email}>
              {me.fullName || me.email}
            </span>
          </div>
        </header>
        <SectionGate roles={me.roles}>
          <Outlet />
        </SectionGate>
      </div>
    </div>
  );
}

/**
 * A page of a section the role may not use (an address typed or kept from before a role changed)
 * says so in place of the page, and loads nothing; the server refuses its requests anyway.
 */
function SectionGate({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const { pathname } = useLocation();
  const section = pathname.startsWith(base) ? sectionOf(pathname.slice(base.length)) : undefined;
  if (!section || can(roles, section.permission)) return <>{children}</>;
  return (
    <AdminPage title={t(`nav.${section.key}`)}>
      <Panel>
        <NoAccess>
          <Link to={base} className="text-sm font-semibold text-brand-700 underline underline-offset-2">
            {t('noAccess.home')}
          </Link>
        </NoAccess>
      </Panel>
    </AdminPage>
  );
}

function SidebarContent({ collapsed, roles }: { collapsed: boolean; roles: readonly string[] }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const { pathname } = useLocation();
  const { signingOut, signOut } = useSignOut();

  const item = 'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors';
  return (
    <>
      <div className={cn('flex h-16 shrink-0 items-center border-b border-white/10', collapsed ? 'justify-center px-2' : 'px-5')}>
        <Link to={base} className="rounded-xl" aria-label={t('layout.home')}>
          {collapsed ? <span className="grid size-9 place-items-center rounded-xl bg-gradient-to-br from-brand-500 to-violet-600 text-white shadow-sm">
              <TrendingUp className="size-5" aria-hidden="true" />
            </span> : <Logo name={t('common:brand')} inverted />}
        </Link>
      </div>
      <nav aria-label={t('layout.navigation')} className="flex-1 overflow-y-auto p-3">
        <ul className="space-y-1">
          {navFor(roles).map(({ key, path, icon: Icon, also }) => {
            const to = base + path;
            const extra = also?.some((p) => pathname === base + p) ?? false;
            return (
              <li key={key}>
                <NavLink
                  to={to}
                  end={path === ''}
                  title={collapsed ? t(`nav.${key}`) : undefined}
                  aria-label={collapsed ? t(`nav.${key}`) : undefined}
                  className={({ isActive }) =>
                    cn(item, collapsed && 'justify-center', isActive || extra ? 'bg-brand-600 text-white shadow-sm' : 'text-slate-300 hover:bg-white/5 hover:text-white')
                  }
                  aria-current={extra ? 'page' : undefined}
                >
                  <Icon className="size-5 shrink-0" aria-hidden="true" />
                  {collapsed ? null : <span className="truncate">{t(`nav.${key}`)}</span>}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="border-t border-white/10 p-3">
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          aria-busy={signingOut}
          aria-label={collapsed ? t('layout.signOut') : undefined}
          title={collapsed ? t('layout.signOut') : undefined}
          className={cn(item, 'w-full text-slate-300 hover:bg-rose-500/10 hover:text-rose-300', collapsed && 'justify-center')}
        >
          <LogOut className="size-5 shrink-0" aria-hidden="true" />
          {collapsed ? null : <span>{signingOut ? t('layout.signingOut') : t('layout.signOut')}</span>}
        </button>
      </div>
    </>
  );
}
