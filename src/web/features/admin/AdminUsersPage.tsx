import { Plus, Wallet, X } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input, Textarea } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../auth/api';
import { ROLES, useAddRole, useAdjustBalance, useRemoveRole, useUsers, type AdminUser, type Role } from './api';
import { count, formatDate, notify, notifyError, reasonOf, usd } from './format';
import { parseSignedCents } from './forms';
import { AdminPage, CardsOrTable, ConfirmDialog, Field, Panel, QueryView, SearchField, Select, Table, td, Th, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t }) => ({ title: `${t('admin:users.title')} · ${t('brand')}` });

const ROLE_TONE: Record<Role, string> = {
  admin: 'bg-rose-50 text-rose-700 ring-rose-200 hover:bg-rose-100',
  moderator: 'bg-amber-50 text-amber-800 ring-amber-200 hover:bg-amber-100',
  user: 'bg-slate-100 text-slate-700 ring-slate-200 hover:bg-slate-200',
};

/** /admin/users: search, roles (add, remove by clicking a badge) and balance adjustments (spec 02 §2). */
export default function AdminUsersPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const users = useUsers(q);
  const [removing, setRemoving] = useState<{ user: AdminUser; role: Role } | null>(null);
  const [adding, setAdding] = useState<AdminUser | null>(null);
  const [adjusting, setAdjusting] = useState<AdminUser | null>(null);
  const removeRole = useRemoveRole();
  useFailureNotice(users, 'notices.usersNotLoaded');

  const confirmRemove = () => {
    if (!removing) return;
    removeRole.mutate(
      { userId: removing.user.id, role: removing.role },
      {
        onSuccess: () => {
          notify.success(t('notices.roleRemoved'), t(`roles.${removing.role}`));
          setRemoving(null);
        },
        onError: (err) => {
          notifyError(t, 'notices.roleNotRemoved', err);
          setRemoving(null);
        },
      },
    );
  };

  return (
    <AdminPage title={t('users.title')} description={users.data ? t('users.total', { count: users.data.total, formatted: count(users.data.total, lang) }) : undefined}>
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
                    </div>
                    <p className="shrink-0 text-sm font-semibold tabular-nums text-slate-900">{usd(u.balanceCents, lang)}</p>
                  </div>
                  <p className="mt-1 text-xs text-slate-500">
                    {t('users.registered')}: {formatDate(u.createdAt, lang)}
                  </p>
                  <div className="mt-3">
                    <RoleBadges user={u} onRemove={(role) => setRemoving({ user: u, role })} />
                  </div>
                  <UserActions user={u} onAddRole={() => setAdding(u)} onAdjust={() => setAdjusting(u)} className="mt-3 flex gap-2" />
                </li>
              ))}
            >
              <Table
                label={t('users.title')}
                minWidth="min-w-[860px]"
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
                      <p className="text-xs text-slate-500">{u.email}</p>
                    </td>
                    <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{usd(u.balanceCents, lang)}</td>
                    <td className={`${td} whitespace-nowrap`}>{formatDate(u.createdAt, lang)}</td>
                    <td className={td}>
                      <RoleBadges user={u} onRemove={(role) => setRemoving({ user: u, role })} />
                    </td>
                    <td className={`${td} whitespace-nowrap text-right`}>
                      <UserActions user={u} onAddRole={() => setAdding(u)} onAdjust={() => setAdjusting(u)} className="inline-flex gap-2" />
                    </td>
                  </tr>
                ))}
              </Table>
            </CardsOrTable>
          )}
        </QueryView>
      </Panel>

      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={t('users.removeRoleTitle')}
        description={removing ? t('users.removeRoleText', { role: t(`roles.${removing.role}`), email: removing.user.email }) : undefined}
        confirmLabel={t('users.removeRole')}
        onConfirm={confirmRemove}
        pending={removeRole.isPending}
        danger
      />
      {adding ? <AddRoleDialog user={adding} onClose={() => setAdding(null)} /> : null}
      {adjusting ? <BalanceDialog user={adjusting} onClose={() => setAdjusting(null)} /> : null}
    </AdminPage>
  );
}

/** A user's two buttons, in the phone card and in the table row. */
function UserActions({ user, onAddRole, onAdjust, className }: { user: AdminUser; onAddRole: () => void; onAdjust: () => void; className: string }) {
  const { t } = useTranslation('admin');
  return (
    <div className={className}>
      <Button size="sm" variant="outline" onClick={onAddRole} aria-label={t('users.addRoleFor', { email: user.email })}>
        <Plus className="size-4" aria-hidden="true" />
        {t('users.addRole')}
      </Button>
      <Button size="sm" variant="outline" onClick={onAdjust} aria-label={t('users.adjustFor', { email: user.email })}>
        <Wallet className="size-4" aria-hidden="true" />
        {t('users.adjust')}
      </Button>
    </div>
  );
}

/** The user's roles as badges; clicking one asks to remove that role (spec 02 §2). */
function RoleBadges({ user, onRemove }: { user: AdminUser; onRemove: (role: Role) => void }) {
  const { t } = useTranslation('admin');
  return (
    <ul className="flex flex-wrap gap-1.5">
      {user.roles.map((role) => (
        <li key={role}>
          <button
            type="button"
            onClick={() => onRemove(role)}
            aria-label={t('users.removeRoleLabel', { role: t(`roles.${role}`), email: user.email })}
            title={t('users.removeRoleHint')}
            className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${ROLE_TONE[role]}`}
          >
            {t(`roles.${role}`)}
            <X className="size-3" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

function AddRoleDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [role, setRole] = useState<Role>(ROLES.find((r) => !user.roles.includes(r)) ?? 'user');
  const add = useAddRole();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The user has it already: say so and send nothing (spec 02 §4).
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
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('users.addRoleTitle')} description={user.email} closeLabel={t('common.close')}>
      <form onSubmit={submit} className="space-y-5">
        <Field label={t('users.role')}>
          {({ id }) => (
            <Select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
            {t('users.addRole')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function BalanceDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const adjust = useAdjustBalance();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cents = parseSignedCents(amount);
    const next = {
      amount: cents === null ? t('users.amountInvalid') : undefined,
      reason: reason.trim().length < 3 ? t('users.reasonRequired') : undefined,
    };
    setErrors(next);
    if (next.amount || next.reason || cents === null) return;
    adjust.mutate(
      { userId: user.id, amountCents: cents, reason: reason.trim() },
      {
        onSuccess: (r) => {
          notify.success(t('notices.balanceAdjusted'), t('users.newBalance', { balance: usd(r.balanceCents, lang) }));
          onClose();
        },
        onError: (err) => notify.error(t('notices.balanceNotAdjusted'), reasonOf(t, err)),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('users.adjustTitle')} description={t('users.adjustText', { email: user.email, balance: usd(user.balanceCents, lang) })} closeLabel={t('common.close')}>
      <form onSubmit={submit} noValidate className="space-y-5">
        <Field label={t('users.amount')} hint={t('users.amountHint')} error={errors.amount}>
          {({ id, describedBy }) => (
            <Input id={id} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} aria-describedby={describedBy} aria-invalid={!!errors.amount} placeholder="10.00" />
          )}
        </Field>
        <Field label={t('users.reason')} error={errors.reason}>
          {({ id, describedBy }) => (
            <Textarea id={id} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby={describedBy} aria-invalid={!!errors.reason} maxLength={500} required />
          )}
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={adjust.isPending} aria-busy={adjust.isPending}>
            {t('users.adjustSubmit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
