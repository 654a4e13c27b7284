import { BadgePercent, Check, CreditCard, History, KeyRound, MoreHorizontal, Plus, Wallet, X } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { balanceAdjustmentSchema, roleInputSchema } from '../../../core/contracts/admin';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../../lib/api';
import { useCan } from './access';
import { ROLES, useAddRole, useAdjustBalance, usePayments, useRemoveRole, useSetApiAccess, useUsers, type AdminPayment, type AdminUser, type Role } from './api';
import { useAdminBase } from './AdminLayout';
import { PaymentsTable, RefundDialog, ReversalDialog } from './PaymentsTable';
import { DeleteDialog, FormDialog } from './dialogs';
import { SignInsDialog } from './SignInsDialog';
import { CustomerGroupsPanel, PricingBadge, PricingDialog } from './CustomerPricing';
import { notify, notifyError } from './format';
import { parseSignedMicros } from './forms';
import { AdminPage, CardsOrTable, Field, Panel, QueryView, ReasonField, SearchField, Select, Table, td, Th, useFailureNotice } from './ui';
import { formatDate, formatMoney, formatNumber } from '../../lib/format';

export const ns = ['admin', 'auth', 'payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:users.title')} · ${site.site_name}` });

const ROLE_TONE: Record<Role, string> = {
  admin: 'bg-rose-50 text-rose-700 ring-rose-200 hover:bg-rose-100',
  moderator: 'bg-amber-50 text-amber-800 ring-amber-200 hover:bg-amber-100',
  user: 'bg-slate-100 text-slate-700 ring-slate-200 hover:bg-slate-200',
};

/** /admin/users: search, roles (add, remove by clicking a badge) and balance adjustments (docs/rules.md#admin). */
export default function AdminUsersPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  // The audit log links a user here by e-mail (`?q=`).
  const [params] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const [q, setQ] = useState(() => (params.get('q') ?? '').trim());
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const users = useUsers(q);
  const [removing, setRemoving] = useState<{ user: AdminUser; role: Role } | null>(null);
  const [adding, setAdding] = useState<AdminUser | null>(null);
  const [adjusting, setAdjusting] = useState<AdminUser | null>(null);
  const [viewing, setViewing] = useState<AdminUser | null>(null);
  const [pricing, setPricing] = useState<AdminUser | null>(null);
  const [history, setHistory] = useState<AdminUser | null>(null);
  const removeRole = useRemoveRole();
  useFailureNotice(users, 'notices.usersNotLoaded');

  return (
    <AdminPage title={t('users.title')} description={users.data ? t('users.total', { count: users.data.total, formatted: formatNumber(users.data.total, lang) }) : undefined}>
      <Panel>
        <div className="border-b border-slate-200 p-4">
          <SearchField id="user-search" label={t('users.search')} value={text} onChange={setText} placeholder={t('users.searchPlaceholder')} className="max-w-md" inputClassName="" />
        </div>
        <QueryView query={users} error={t('notices.usersNotLoaded')} empty={t('users.empty')} isEmpty={(data) => data.users.length === 0}>
          {(data) => (
            <CardsOrTable
              cards={data.users.map((u) => (
                <li key={u.id} className="px-4 py-4" data-testid="user-card">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="truncate font-medium text-slate-900">{u.name || '—'}</p>
                      <p className="truncate text-xs text-slate-500">{u.email}</p>
                      <ApiBadge user={u} />
                      <PricingBadge user={u} />
                    </div>
                    <Balance user={u} className="shrink-0 text-right text-sm font-semibold" />
                  </div>
                  <p className="mt-1 text-xs text-slate-500">
                    {t('users.registered')}: {formatDate(u.createdAt, lang)}
                  </p>
                  <div className="mt-3">
                    <RoleBadges user={u} onRemove={(role) => setRemoving({ user: u, role })} />
                  </div>
                  <UserActions user={u} onAddRole={() => setAdding(u)} onAdjust={() => setAdjusting(u)} onSignIns={() => setViewing(u)} onPricing={() => setPricing(u)} onPayments={() => setHistory(u)} className="mt-3 flex flex-wrap items-center gap-2" />
                </li>
              ))}
            >
              <Table
                label={t('users.title')}
                minWidth="min-w-[640px]"
                head={
                  <>
                    <Th>{t('users.name')}</Th>
                    <Th className="text-right">{t('users.balance')}</Th>
                    <Th>{t('users.registered')}</Th>
                    <Th>{t('users.roles')}</Th>
                    <Th className="text-right">{t('common.actions')}</Th>
                  </>
                }
              >
                {data.users.map((u) => (
                  <tr key={u.id} data-testid="user-row" data-email={u.email}>
                    <td className={td}>
                      <p className="font-medium text-slate-900">{u.name || '—'}</p>
                      <p className="break-all text-xs text-slate-500">{u.email}</p>
                      <ApiBadge user={u} />
                      <PricingBadge user={u} />
                    </td>
                    <td className={`${td} whitespace-nowrap text-right font-medium`}>
                      <Balance user={u} />
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{formatDate(u.createdAt, lang)}</td>
                    <td className={td}>
                      <RoleBadges user={u} onRemove={(role) => setRemoving({ user: u, role })} />
                    </td>
                    <td className={`${td} whitespace-nowrap text-right`}>
                      <UserActions user={u} onAddRole={() => setAdding(u)} onAdjust={() => setAdjusting(u)} onSignIns={() => setViewing(u)} onPricing={() => setPricing(u)} onPayments={() => setHistory(u)} className="inline-flex items-center gap-2" />
                    </td>
                  </tr>
                ))}
              </Table>
            </CardsOrTable>
          )}
        </QueryView>
      </Panel>

      <DeleteDialog
        item={removing}
        onClose={() => setRemoving(null)}
        remove={removeRole}
        variables={(r) => ({ userId: r.user.id, role: r.role })}
        title={t('users.removeRoleTitle')}
        description={(r) => t('users.removeRoleText', { role: t(`roles.${r.role}`), email: r.user.email })}
        confirmLabel={t('users.removeRole')}
        onDone={(r) => notify.success(t('notices.roleRemoved'), t(`roles.${r.role}`))}
        failedKey="notices.roleNotRemoved"
      />
      {adding ? <AddRoleDialog user={adding} onClose={() => setAdding(null)} /> : null}
      {adjusting ? <BalanceDialog user={adjusting} onClose={() => setAdjusting(null)} /> : null}
      {viewing ? <SignInsDialog user={viewing} onClose={() => setViewing(null)} /> : null}
      {pricing ? <PricingDialog user={pricing} onClose={() => setPricing(null)} /> : null}
      <CustomerGroupsPanel />
      {history ? <PaymentHistoryDialog user={history} onClose={() => setHistory(null)} /> : null}
    </AdminPage>
  );
}

/**
 * A user's actions, in the phone card and in the table row: one button that opens a menu of those
 * the role may use (so the row fits beside the user's figures in every language), and "view only"
 * beside it for a role that may change nothing. Radix's menu: arrow keys, Home, End and typing move
 * through it, Escape closes it and focus goes back to the button.
 */
function UserActions({
  user,
  onAddRole,
  onAdjust,
  onSignIns,
  onPricing,
  onPayments,
  className,
}: {
  user: AdminUser;
  onAddRole: () => void;
  onAdjust: () => void;
  onSignIns: () => void;
  onPricing: () => void;
  onPayments: () => void;
  className: string;
}) {
  const { t } = useTranslation('admin');
  const allowed = useCan();
  const setApi = useSetApiAccess();
  const toggleApi = () =>
    setApi.mutate(
      { userId: user.id, enabled: !user.apiAccess },
      {
        onSuccess: (r) => notify.success(t(r.apiAccess ? 'notices.apiEnabled' : 'notices.apiDisabled'), user.email),
        onError: (err) => notifyError(t, 'notices.apiNotChanged', err),
      },
    );
  const changes = allowed('users:roles') || allowed('balances:write') || allowed('prices:manage');
  const item = 'flex cursor-default select-none items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-800 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-800 data-[disabled]:opacity-60';
  return (
    <div className={className}>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <Button size="sm" variant="outline" aria-label={t('users.actionsFor', { email: user.email })} data-testid="user-actions">
            <MoreHorizontal className="size-4" aria-hidden="true" />
            {t('common.actions')}
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} collisionPadding={8} className="z-50 min-w-52 rounded-xl border border-slate-200 bg-white p-1 shadow-lg">
            <DropdownMenu.Item className={item} onSelect={onSignIns}>
              <History className="size-4 text-slate-500" aria-hidden="true" />
              {t('users.signIns')}
            </DropdownMenu.Item>
            {allowed('payments:read') ? (
              <DropdownMenu.Item className={item} onSelect={onPayments}>
                <CreditCard className="size-4 text-slate-500" aria-hidden="true" />
                {t('payments.history')}
              </DropdownMenu.Item>
            ) : null}
            {changes ? <DropdownMenu.Separator className="my-1 h-px bg-slate-100" /> : null}
            {allowed('users:roles') ? (
              <DropdownMenu.CheckboxItem className={item} checked={user.apiAccess} disabled={setApi.isPending} onSelect={toggleApi} data-api-access={user.apiAccess}>
                <KeyRound className="size-4 text-slate-500" aria-hidden="true" />
                <span className="flex-1">{t('users.apiAccessToggle')}</span>
                <DropdownMenu.ItemIndicator>
                  <Check className="size-4 text-brand-700" aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.CheckboxItem>
            ) : null}
            {allowed('users:roles') ? (
              <DropdownMenu.Item className={item} onSelect={onAddRole}>
                <Plus className="size-4 text-slate-500" aria-hidden="true" />
                {t('users.addRole')}
              </DropdownMenu.Item>
            ) : null}
            {allowed('balances:write') ? (
              <DropdownMenu.Item className={item} onSelect={onAdjust}>
                <Wallet className="size-4 text-slate-500" aria-hidden="true" />
                {t('users.adjustTitle')}
              </DropdownMenu.Item>
            ) : null}
            {allowed('prices:manage') ? (
              <DropdownMenu.Item className={item} onSelect={onPricing}>
                <BadgePercent className="size-4 text-slate-500" aria-hidden="true" />
                {t('pricing.title')}
              </DropdownMenu.Item>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {changes ? null : <span className="self-center text-xs text-slate-500">{t('users.readOnly')}</span>}
    </div>
  );
}

/** A customer's API access, beside their name while it is on. */
function ApiBadge({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  if (!user.apiAccess) return null;
  return (
    <p data-testid="user-api" className="mt-1 mr-1 inline-flex items-center gap-1 rounded-md bg-sky-50 px-2 py-0.5 text-xs font-medium text-sky-800 ring-1 ring-sky-200 ring-inset">
      <KeyRound className="size-3.5" aria-hidden="true" />
      {t('users.apiOn')}
    </p>
  );
}

/** The user's roles as badges; clicking one asks to remove that role (docs/rules.md#admin). */
function RoleBadges({ user, onRemove }: { user: AdminUser; onRemove: (role: Role) => void }) {
  const { t } = useTranslation('admin');
  const allowed = useCan();
  return (
    <ul className="flex flex-wrap gap-1.5">
      {user.roles.map((role) => (
        <li key={role}>
          {!allowed('users:roles') ? (
            <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${ROLE_TONE[role]}`}>{t(`roles.${role}`)}</span>
          ) : <button
            type="button"
            onClick={() => onRemove(role)}
            aria-label={t('users.removeRoleLabel', { role: t(`roles.${role}`), email: user.email })}
            title={t('users.removeRoleHint')}
            className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${ROLE_TONE[role]}`}
          >
            {t(`roles.${role}`)}
            <X className="size-3" aria-hidden="true" />
          </button>}
        </li>
      ))}
    </ul>
  );
}

function AddRoleDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const form = useForm({ resolver: zodResolver(roleInputSchema), defaultValues: { role: ROLES.find((r) => !user.roles.includes(r)) ?? 'user' } });
  const add = useAddRole();

  const submit = ({ role }: { role: Role }) => {
    // The user has it already: say so and send nothing (docs/rules.md#admin).
    if (user.roles.includes(role)) {
      notify.info(t('notices.roleExists'), t(`roles.${role}`));
      return;
    }
    add.mutate(
      { userId: user.id, role },
      {
        onSuccess: () => {
          notify.success(t('notices.roleAdded'), t(`roles.${role}`));
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'ROLE_EXISTS') notify.info(t('notices.roleExists'), t(`roles.${role}`));
          else notifyError(t, 'notices.roleNotAdded', err);
        },
      },
    );
  };

  return (
    <FormDialog title={t('users.addRoleTitle')} description={user.email} onClose={onClose} onSubmit={() => void form.handleSubmit(submit)()} pending={add.isPending} submitLabel={t('users.addRole')}>
      <Field label={t('users.role')}>
        {(control) => (
          <Select {...control} {...form.register('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </Select>
        )}
      </Field>
    </FormDialog>
  );
}

/**
 * The balance form: a signed amount in dollars read by `parseSignedMicros` (blank, zero or not an
 * amount is refused) and the contract's reason, handed on as micro-dollars and the trimmed reason.
 */
const balanceFormSchema = z.object({
  amount: z.string().transform((text, ctx) => {
    const micros = parseSignedMicros(text);
    if (micros === null) {
      ctx.addIssue({ code: 'custom', message: 'amountInvalid' });
      return z.NEVER;
    }
    return micros;
  }),
  reason: balanceAdjustmentSchema.shape.reason,
}).transform(({ amount, reason }) => ({ amountMicros: amount, reason }));

function BalanceDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  // Checked when sent only.
  const form = useForm({ resolver: zodResolver(balanceFormSchema), defaultValues: { amount: '', reason: '' }, reValidateMode: 'onSubmit', shouldFocusError: false });
  const { errors } = form.formState;
  const adjust = useAdjustBalance();

  const submit = ({ amountMicros, reason }: z.output<typeof balanceFormSchema>) => {
    adjust.mutate(
      { userId: user.id, amountMicros, reason },
      {
        onSuccess: (r) => {
          notify.success(t('notices.balanceAdjusted'), t('users.newBalance', { balance: formatMoney(r.balanceMicros, 'USD', lang) }));
          onClose();
        },
        onError: (err) => notifyError(t, 'notices.balanceNotAdjusted', err),
      },
    );
  };

  return (
    <FormDialog
      title={t('users.adjustTitle')}
      description={t('users.adjustText', { email: user.email, balance: formatMoney(user.balanceMicros, 'USD', lang) })}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(submit)()}
      pending={adjust.isPending}
      submitLabel={t('users.adjustSubmit')}
    >
      <Field label={t('users.amount')} hint={t('users.amountHint')} error={errors.amount ? t('users.amountInvalid') : undefined}>
        {(control) => <Input {...control} inputMode="decimal" {...form.register('amount')} placeholder="10.00" />}
      </Field>
      <ReasonField
        value={form.watch('reason')}
        onChange={(v) => form.setValue('reason', v)}
        error={errors.reason ? t('users.reasonRequired') : undefined}
      />
    </FormDialog>
  );
}

/** A balance; below zero (only a chargeback takes it there, docs/decisions/0019) in red, with what the customer owes. */
function Balance({ user, className = '' }: { user: AdminUser; className?: string }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const owed = user.balanceMicros < 0;
  return (
    <span className={`block tabular-nums ${owed ? 'text-rose-700' : 'text-slate-900'} ${className}`} data-testid="user-balance">
      {formatMoney(user.balanceMicros, 'USD', lang)}
      {owed ? (
        <span className="mt-0.5 block text-xs font-semibold" data-testid="user-owed">
          {t('payments.owed', { amount: formatMoney(-user.balanceMicros, 'USD', lang) })}
        </span>
      ) : null}
    </span>
  );
}

/** The customer's payments, newest first (the first page; the payments page has them all), with their chargebacks. */
function PaymentHistoryDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const payments = usePayments({ userId: user.id });
  const [reversing, setReversing] = useState<AdminPayment | null>(null);
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('payments.historyTitle')} description={user.email} closeLabel={t('common.close')} className="sm:max-w-5xl">
      <QueryView query={payments} error={t('payments.notLoaded')} empty={t('payments.empty')} isEmpty={(d) => d.payments.length === 0}>
        {(d) => (
          <div className="-mx-4 sm:mx-0" data-testid="user-payments">
            <PaymentsTable payments={d.payments} onReverse={setReversing} onRefund={setRefunding} />
          </div>
        )}
      </QueryView>
      <p className="mt-4 text-right text-sm">
        <Link to={`${base}/payments?userId=${encodeURIComponent(user.id)}`} className="font-semibold text-brand-700 underline underline-offset-2">
          {t('payments.historyAll')}
        </Link>
      </p>
      {reversing ? <ReversalDialog payment={reversing} onClose={() => setReversing(null)} /> : null}
      {refunding ? <RefundDialog payment={refunding} onClose={() => setRefunding(null)} /> : null}
    </Dialog>
  );
}
