import { CheckCircle2, CircleDashed, CreditCard, History, KeyRound, LifeBuoy, ListPlus, Loader2, LogOut, Plus, Settings, ShoppingBag, Wallet, XCircle } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { useLocation, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { toast } from '../../lib/toast';
import { LOCALES } from '../../../core/i18n';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useLanguage } from '../../lib/language';
import { useLiveEvents } from '../../lib/liveEvents';
import { orderNoteText } from '../../lib/orderNote';
import { requireMe, useMe, useSignOut, type Me } from '../auth';
import { servicesAnswer, type OrderNavigationState } from '../catalog/pages';
import { useOrderOverview, useWallet } from './api';
import { useDashboardCache } from './cache';
import { useSiteUpdates } from './siteUpdates';
import type { HistoryQuery, OrderStats } from '../../../core/contracts/orders';
import { historyFromAddress, withHistory } from './historyAddress';
import { OrdersTab } from './OrdersTab';
import { TabList, TabPanel, type TabItem } from '../../components/ui/Tabs';
import { LoadingBox } from '../../components/ui/QueryState';
import { Spinner } from '../../components/ui/Spinner';
import { whenIdle } from '../../lib/idle';
import { formatMoney, formatNumber } from '../../lib/format';
import { island } from '../../islands/island';
import { NeedsText } from '../../i18n/NeedsText';

export const ns = ['dashboard', 'auth', 'catalog', 'payments', 'reseller', 'order-tools', 'order-notes'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('dashboard:title')} · ${site.site_name}` });

/**
 * Signed-out visitors go home with the sign-in dialog (docs/rules.md#accounts). The page sends the
 * service list with itself, for the new-order tab (docs/decisions/0033).
 */
export const loader = async (args: LoaderFunctionArgs) => {
  const lang = routeLanguage(args.params, args.request);
  const [, answers] = await Promise.all([requireMe(args, lang), servicesAnswer(args, lang)]);
  return { answers };
};

const TABS = ['orders', 'mass', 'history', 'payments', 'support', 'api', 'settings'] as const;
type Tab = (typeof TABS)[number];
const isTab = (v: unknown): v is Tab => typeof v === 'string' && (TABS as readonly string[]).includes(v);

/** Reload timings (docs/rules.md#screens): after a payment return, after opening the card page, after an order. */
const PAYMENT_RETURN_RELOAD_MS = 3000;
const PAYMENT_OPENED_RELOAD_MS = 2000;
const AFTER_ORDER_MS = 1500;

// The tabs other than the new order's, and the top-up dialog, load when first opened, with the
// query cache they read through (./queryHost.tsx) and the text they show beyond the page's
// (`TAB_TEXT`): the page's first download carries the order form alone (docs/decisions/0032).
function whenOpened<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => Promise.all([load(), import('./queryHost')]).then(([Component, { hosted }]) => ({ default: hosted(Component) })));
}
const HistoryTab = whenOpened(() => import('./HistoryTab').then((m) => m.HistoryTab));
const MassOrderTab = whenOpened(() => import('./MassOrderTab').then((m) => m.MassOrderTab));
const ApiKeysTab = whenOpened(() => import('./ApiKeysTab').then((m) => m.ApiKeysTab));
const SettingsTab = whenOpened(() => import('./SettingsTab').then((m) => m.SettingsTab));
const paymentsCode = () => import('../payments/tabs');
const TopUpDialog = whenOpened(() => paymentsCode().then((m) => m.TopUpDialog));
const PaymentsTab = whenOpened(() => paymentsCode().then((m) => m.PaymentsTab));
const SupportTab = whenOpened(() => import('../support/tabs').then((m) => m.SupportTab));
/** What each tab shows of the text beyond the page's own (`islandNs`), loaded with its code. */
const TAB_TEXT: Record<Exclude<Tab, 'orders'>, readonly string[]> = {
  mass: ['order-tools'],
  history: ['order-tools', 'reseller'],
  payments: ['payments'],
  support: ['support'],
  api: ['reseller'],
  settings: ['auth'],
};
const TOP_UP_TEXT = ['payments'];

const ICONS = { orders: Plus, mass: ListPlus, history: History, payments: CreditCard, support: LifeBuoy, api: KeyRound, settings: Settings } as const;

/**
 * /{lang}/dashboard: balance and top-up, the order counters, and the tabs (new order, mass order, history,
 * payments, support, settings). Orders and the balance change live over /api/events. The page is
 * one island (docs/decisions/0032): the customer is the one the page was rendered for (its loader
 * let no one else in).
 */
export function DashboardView() {
  const me = useMe().data;
  // Signed out in another tab after the page was rendered: the live stream's end reloads the page.
  return me ? <Dashboard me={me} /> : null;
}

function Dashboard({ me }: { me: Me }) {
  const { t } = useTranslation('dashboard');
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const cache = useDashboardCache();
  useSiteUpdates();

  const navState = (location.state ?? null) as Partial<OrderNavigationState> | null;
  // The server knows neither the hash nor the history state: it renders the default tab and an
  // empty form, and the tab they ask for and the catalogue's Buy Now choices are taken right after
  // hydration, before the first paint.
  const [tab, setTab] = useState<Tab>('orders');
  const [prefill, setPrefill] = useState<{ key: number; initial: Partial<OrderNavigationState> | null }>({ key: 0, initial: null });
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current) return;
    opened.current = true;
    const fromState = (navState as { tab?: unknown } | null)?.tab;
    const fromHash = location.hash.replace(/^#/, '');
    const first = isTab(fromState) ? fromState : isTab(fromHash) ? fromHash : 'orders';
    if (first !== 'orders') setTab(first);
    if (navState?.serviceId) setPrefill({ key: 1, initial: navState });
  }, [navState, location.hash]);
  // A tab asked for once the page is open — a link to `#payments` from the menu, the address
  // bar, back and forward — is followed too.
  const seenKey = useRef(location.key);
  useEffect(() => {
    if (seenKey.current === location.key) return;
    seenKey.current = location.key;
    const asked = location.hash.replace(/^#/, '');
    if (isTab(asked)) setTab(asked);
  }, [location.key, location.hash]);
  useEffect(() => {
    const follow = () => {
      const asked = window.location.hash.replace(/^#/, '');
      if (isTab(asked)) setTab(asked);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const [topUpOpen, setTopUpOpen] = useState(false);
  // Mounted from its first opening on, so that closing it keeps its closing animation.
  const [topUpUsed, setTopUpUsed] = useState(false);
  if (topUpOpen && !topUpUsed) setTopUpUsed(true);
  // The top-up dialog is the page's main action: its code is fetched once the page is live and the
  // browser idle, so that a tap on "Top up" rarely waits for it (and shows a loading state when it does).
  useEffect(() => whenIdle(() => void paymentsCode().catch(() => {})), []);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const wallet = useWallet(me.balanceMicros);
  const overview = useOrderOverview();
  const stats = overview.data?.stats;
  const balanceMicros = wallet.data ?? me.balanceMicros;

  const { reload } = cache;
  const after = useCallback((fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms));
  }, []);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // The history's tab, search and page live in the address (docs/rules.md#screens).
  const navigate = useNavigate();
  const historyQuery = useMemo(() => historyFromAddress(searchParams), [searchParams]);
  const onHistoryQuery = useCallback(
    (next: HistoryQuery) => {
      const search = withHistory(new URLSearchParams(window.location.search), next).toString();
      void navigate({ search: search ? `?${search}` : '', hash: '#history' }, { replace: true, preventScrollReset: true, state: window.history.state?.usr ?? null });
    },
    [navigate],
  );

  const choose = useCallback((next: Tab) => {
    setTab(next);
    // The address remembers the tab (a reload opens it again); the router's state is kept.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${next}`);
  }, []);

  // Live: orders and counters follow the provider; a credit is announced with its amount.
  useLiveEvents(
    (event) => {
      if (event.type === 'order') {
        // Orders are accepted at once and sent to the provider afterwards: a refusal arrives here.
        if (event.status === 'error' && event.note) toast.error(t('orders.refusedTitle'), { description: orderNoteText(t, event.note) });
        cache.ordersChanged();
      } else if (event.type === 'balance') {
        cache.balance(event.balanceMicros);
        if (event.deltaMicros > 0) toast.success(t('balance.updated', { amount: formatMoney(event.deltaMicros, 'USD', locale) }));
        cache.paymentsChanged();
      } else if (event.type === 'payment') {
        cache.paymentsChanged();
      }
    },
    { onReconnect: reload },
  );

  // Back from the card page with ?payment=success|error (docs/rules.md#screens).
  const paymentReturn = searchParams.get('payment');
  useEffect(() => {
    if (paymentReturn !== 'success' && paymentReturn !== 'error') return;
    if (paymentReturn === 'success') {
      toast.success(t('payment.success'), { description: t('payment.successText') });
      after(reload, PAYMENT_RETURN_RELOAD_MS);
    } else {
      toast.error(t('payment.error'), { description: t('payment.errorText') });
    }
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('payment');
        return next;
      },
      { replace: true, preventScrollReset: true, state: location.state },
    );
  }, [paymentReturn, reload, after, setSearchParams, t, location.state]);

  // Load failures are also announced once as a notice (docs/rules.md#screens).
  useEffect(() => {
    if (!overview.isError) return;
    // The words for the error's code load with the notice: the page's first scripts carry no API client.
    void import('../../lib/errorText').then(({ errorText }) =>
      toast.error(t('errors.dataLoad'), { description: errorText(t, overview.error, 'dashboard'), id: 'dashboard-data' }),
    );
  }, [overview.isError, overview.error, t]);

  const { signingOut, signOut } = useSignOut(() => toast.error(t('signOut.errorTitle'), { description: t('signOut.error') }));

  const items = useMemo<TabItem<Tab>[]>(() => TABS.map((id) => ({ id, label: t(`tabs.${id}`), icon: ICONS[id] })), [t]);
  // "Order again" in the history starts the form afresh from that order (a new key remounts it).
  const reorder = useCallback(
    (initial: OrderNavigationState) => {
      setPrefill((p) => ({ key: p.key + 1, initial }));
      choose('orders');
    },
    [choose],
  );

  const counters: { key: keyof OrderStats; icon: typeof ShoppingBag; tone: string }[] = [
    { key: 'total', icon: ShoppingBag, tone: 'bg-brand-50 text-brand-600' },
    { key: 'active', icon: Loader2, tone: 'bg-sky-50 text-sky-600' },
    { key: 'completed', icon: CheckCircle2, tone: 'bg-emerald-50 text-emerald-600' },
    { key: 'partial', icon: CircleDashed, tone: 'bg-amber-50 text-amber-600' },
    { key: 'error', icon: XCircle, tone: 'bg-rose-50 text-rose-600' },
  ];

  let panel: ReactNode = null;
  if (tab === 'history') {
    panel = <HistoryTab query={historyQuery} onQuery={onHistoryQuery} locale={locale} onNewOrder={() => choose('orders')} onReorder={reorder} />;
  } else if (tab === 'mass') {
    panel = <MassOrderTab balanceMicros={balanceMicros} onTopUp={() => setTopUpOpen(true)} onPlaced={reload} />;
  } else if (tab === 'payments') {
    panel = <PaymentsTab locale={locale} onTopUp={() => setTopUpOpen(true)} />;
  } else if (tab === 'support') {
    panel = <SupportTab />;
  } else if (tab === 'api') {
    panel = <ApiKeysTab locale={locale} />;
  } else {
    panel = <SettingsTab me={me} />;
  }

  return (
    <main id="main" className="flex-1 bg-slate-50">
      <div className="bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
        {/* On a phone the order form starts in the first screen: a short header, a balance row and one line of counters above it. */}
        <div className="mx-auto flex max-w-7xl items-start justify-between gap-4 px-4 pb-20 pt-5 sm:items-end sm:px-6 sm:pb-24 sm:pt-10 lg:px-8">
          <div className="min-w-0">
            <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('title')}</h1>
            <p className="mt-1 truncate text-brand-50/90" data-testid="dashboard-welcome">
              {t('welcome', { name: me.fullName || me.email })}
            </p>
          </div>
          <Button
            variant="white"
            size="sm"
            onClick={() => void signOut()}
            disabled={signingOut}
            aria-busy={signingOut}
            className="shrink-0 bg-white/10 text-white ring-1 ring-inset ring-white/30 hover:bg-white/20"
          >
            <LogOut className="size-4" aria-hidden="true" />
            {signingOut ? t('signOut.busy') : t('signOut.label')}
          </Button>
        </div>
      </div>

      <div className="mx-auto -mt-16 max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
          <section
            aria-labelledby="balance-title"
            className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-col sm:flex-nowrap sm:items-stretch sm:gap-4 sm:p-5"
          >
            <div className="flex items-center gap-3">
              <span className="hidden size-11 place-items-center rounded-xl bg-brand-600 text-white sm:grid">
                <Wallet className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h2 id="balance-title" className="text-sm font-medium text-slate-600">
                  {t('balance.title')}
                </h2>
                <p className={cn('text-2xl font-extrabold tabular-nums', balanceMicros < 0 ? 'text-rose-700' : 'text-slate-900')} data-testid="balance" data-owed={balanceMicros < 0 || undefined} aria-live="polite">
                  {formatMoney(balanceMicros, 'USD', locale)}
                </p>
              </div>
            </div>
            {/* Below zero only after a chargeback (docs/decisions/0019): what is owed, and that a top-up settles it. */}
            {balanceMicros < 0 ? (
              <p role="status" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-inset ring-rose-200" data-testid="balance-owed">
                {t('balance.owed', { amount: formatMoney(-balanceMicros, 'USD', locale) })}
              </p>
            ) : null}
            <Button onClick={() => setTopUpOpen(true)} className="sm:w-full">
              <Plus className="size-4" aria-hidden="true" />
              {t('balance.topUp')}
            </Button>
          </section>

          <section aria-labelledby="counters-title">
            <h2 id="counters-title" className="sr-only">
              {t('counters.title')}
            </h2>
            {/* Phones: one wrapping row of small counters; wider screens: a card each. */}
            <ul className="flex h-full flex-wrap gap-2 sm:grid sm:grid-cols-3 sm:gap-4 lg:grid-cols-5">
              {counters.map(({ key, icon: Icon, tone }) => (
                <li
                  key={key}
                  className="flex items-baseline gap-1.5 rounded-full border border-slate-200 bg-white px-3 py-1.5 shadow-sm sm:flex-col sm:items-stretch sm:justify-between sm:gap-3 sm:rounded-2xl sm:p-4"
                  data-testid={`counter-${key}`}
                >
                  <span className={cn('hidden size-9 place-items-center rounded-lg sm:grid', tone)}>
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div className="flex items-baseline gap-1.5 sm:block">
                    <p className="text-base font-extrabold tabular-nums text-slate-900 sm:text-2xl" data-value={stats?.[key] ?? ''}>
                      {stats ? formatNumber(stats[key], locale) : '—'}
                    </p>
                    <p className="text-sm text-slate-600">{t(`counters.${key}`)}</p>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        </div>

        <div className="mt-6 sm:mt-8">
          <TabList look="grid" items={items} value={tab} onChange={choose} label={t('tabs.label')} idPrefix="dashboard" />
          <TabPanel id="orders" idPrefix="dashboard" active={tab === 'orders'} keepMounted className="pt-4 sm:pt-6">
            <OrdersTab
              key={prefill.key}
              balanceMicros={balanceMicros}
              activeOrders={overview.data?.active}
              initial={prefill.initial}
              onTopUp={() => setTopUpOpen(true)}
              onPlaced={() => after(() => choose('history'), AFTER_ORDER_MS)}
            />
          </TabPanel>
          {tab !== 'orders' ? (
            <TabPanel id={tab} idPrefix="dashboard" active className="pt-4 sm:pt-6">
              <Suspense fallback={<LoadingBox label={t('common:loading')} />}>
                <NeedsText ns={TAB_TEXT[tab]}>{panel}</NeedsText>
              </Suspense>
            </TabPanel>
          ) : null}
        </div>
      </div>

      {topUpUsed ? (
        <Suspense fallback={topUpOpen ? <DialogLoading label={t('common:loading')} /> : null}>
          <NeedsText ns={TOP_UP_TEXT}>
            <TopUpDialog open={topUpOpen} onOpenChange={setTopUpOpen} onOpened={() => after(reload, PAYMENT_OPENED_RELOAD_MS)} />
          </NeedsText>
        </Suspense>
      ) : null}
    </main>
  );
}

/** Where a dialog will open, while its code is still on its way: the page dimmed, a spinner and "Loading…" announced. */
function DialogLoading({ label }: { label: string }) {
  return (
    <div className="fixed inset-0 z-50 grid place-items-center bg-slate-900/40">
      <div className="rounded-2xl bg-white px-8 py-6 shadow-xl">
        <Spinner label={label} />
      </div>
    </div>
  );
}

// The whole page is one island (docs/decisions/0032-the-dashboard-as-an-island.md): its data loads
// in the browser, so it wakes when the page has loaded, without the app's router or query cache.
const DashboardIsland = island('Dashboard', DashboardView);

export default function DashboardPage() {
  return <DashboardIsland />;
}

export const islands = true;
/** Styled by the app's stylesheet, as before: its tabs and dialogs stay out of the public pages' (app/page.ts). */
export const stylesheet = 'app';
/** What its island shows at once besides `common`; each tab brings its own (`TAB_TEXT`). */
export const islandNs = ['dashboard', 'catalog', 'order-notes'];
