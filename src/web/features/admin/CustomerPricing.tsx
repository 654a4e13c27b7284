import { zodResolver } from '@hookform/resolvers/zod';
import { BadgePercent, Pencil, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { customerGroupInputSchema } from '../../../core/contracts/discounts';
import { DISCOUNT_MAX_PERCENT, discountPercentSchema } from '../../../core/discounts';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useCan } from './access';
import { useCreateGroup, useCustomerGroups, useDeleteGroup, useSetCustomerPricing, useUpdateGroup, type AdminUser, type CustomerGroup } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { CardsOrTable, EditDeleteCell, Field, NewButton, Panel, QueryView, Select, Table, td, Th } from './ui';

/**
 * Customer discounts on the team's users page (docs/rules.md#discounts): each customer's discount
 * and group beside their name, a dialog to set them, and the customer groups (name, discount) with
 * their counts. Seen by whoever reads users; changed with `prices:manage`.
 */

/** "12.5" as the page's language writes a percent. */
function usePercent() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  return (percent: string) => t('pricing.percent', { percent: formatNumber(percent, lang) });
}

/** A customer's discount in their row: their own, or their group's with its name; nothing for list prices. */
export function PricingBadge({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const percent = usePercent();
  const groups = useCustomerGroups();
  const group = groups.data?.find((g) => g.id === user.pricing.groupId);
  const own = user.pricing.discountPercent;
  if (own === null && !group) return null;
  const text =
    own !== null
      ? group
        ? t('pricing.ownInGroup', { percent: percent(own), group: group.name })
        : t('pricing.own', { percent: percent(own) })
      : t('pricing.fromGroup', { percent: percent(group!.discountPercent), group: group!.name });
  return (
    <p data-testid="user-pricing" className="mt-1 inline-flex items-center gap-1 rounded-md bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200 ring-inset">
      <BadgePercent className="size-3.5" aria-hidden="true" />
      {text}
    </p>
  );
}

/** The dialog's fields as typed: a blank discount is "not set" (the group's counts), a blank group none. */
const pricingFormSchema = z
  .object({
    discountPercent: z.string().trim().pipe(z.union([z.literal(''), discountPercentSchema])),
    groupId: z.string(),
  })
  .transform(({ discountPercent, groupId }) => ({ discountPercent: discountPercent === '' ? null : discountPercent, groupId: groupId === '' ? null : groupId }));

/** Sets a customer's own discount and group (docs/rules.md#discounts). */
export function PricingDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const groups = useCustomerGroups();
  const percent = usePercent();
  const save = useSetCustomerPricing();
  const form = useForm({
    resolver: zodResolver(pricingFormSchema),
    defaultValues: { discountPercent: user.pricing.discountPercent ?? '', groupId: user.pricing.groupId ?? '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const submit = (input: z.output<typeof pricingFormSchema>) =>
    save.mutate(
      { userId: user.id, input },
      {
        onSuccess: () => {
          notify.success(t('pricing.saved'), user.email);
          onClose();
        },
        onError: (err) => notifyError(t, 'pricing.notSaved', err),
      },
    );
  return (
    <FormDialog title={t('pricing.title')} description={user.email} onClose={onClose} onSubmit={() => void form.handleSubmit(submit)()} pending={save.isPending}>
      <Field label={t('pricing.group')} hint={t('pricing.groupHint')}>
        {(control) => (
          // Drawn again once the groups arrive: a select shows the customer's group only when its option exists.
          <Select key={groups.data ? 'groups' : 'waiting'} {...control} {...form.register('groupId')}>
            <option value="">{t('pricing.noGroup')}</option>
            {(groups.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {`${g.name} (${percent(g.discountPercent)})`}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label={t('pricing.ownDiscount')} hint={t('pricing.ownHint', { max: DISCOUNT_MAX_PERCENT })} error={errors.discountPercent ? t('pricing.percentInvalid', { max: DISCOUNT_MAX_PERCENT }) : undefined}>
        {(control) => <Input {...control} inputMode="decimal" placeholder="10" {...form.register('discountPercent')} />}
      </Field>
    </FormDialog>
  );
}

/** The customer groups: name, discount and how many customers each has; new, edit and delete with `prices:manage`. */
export function CustomerGroupsPanel() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const percent = usePercent();
  const manage = useCan()('prices:manage');
  const groups = useCustomerGroups();
  const remove = useDeleteGroup();
  const [editing, setEditing] = useState<CustomerGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomerGroup | null>(null);
  return (
    <Panel className="mt-6" data-testid="customer-groups">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <div>
          <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <Users className="size-4 text-brand-600" aria-hidden="true" />
            {t('pricing.groupsTitle')}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">{t('pricing.groupsLead')}</p>
        </div>
        {manage ? <NewButton onClick={() => setEditing('new')}>{t('pricing.newGroup')}</NewButton> : null}
      </div>
      <QueryView query={groups} error={t('pricing.groupsNotLoaded')} empty={t('pricing.noGroups')} isEmpty={(data) => data.length === 0}>
        {(data) => (
          <CardsOrTable
            cards={data.map((g) => (
              <li key={g.id} className="flex items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{g.name}</p>
                  <p className="text-xs text-slate-500">{t('pricing.customers', { count: g.customers, formatted: formatNumber(g.customers, lang) })}</p>
                </div>
                <span className="shrink-0 text-sm font-semibold tabular-nums text-emerald-700">{percent(g.discountPercent)}</span>
                {manage ? (
                  <span className="flex shrink-0 gap-1">
                    <Button size="sm" variant="ghost" onClick={() => setEditing(g)} aria-label={t('common.editItem', { name: g.name })}>
                      <Pencil className="size-4" aria-hidden="true" />
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setDeleting(g)} aria-label={t('common.deleteItem', { name: g.name })} className="text-rose-600 hover:bg-rose-50">
                      <Trash2 className="size-4" aria-hidden="true" />
                    </Button>
                  </span>
                ) : null}
              </li>
            ))}
          >
            <Table
              label={t('pricing.groupsTitle')}
              minWidth="min-w-[560px]"
              head={
                <>
                  <Th>{t('pricing.groupName')}</Th>
                  <Th className="text-right">{t('pricing.groupDiscount')}</Th>
                  <Th className="text-right">{t('pricing.groupCustomers')}</Th>
                  {manage ? <Th className="text-right">{t('common.actions')}</Th> : null}
                </>
              }
            >
              {data.map((g) => (
                <tr key={g.id} data-testid="group-row" data-name={g.name}>
                  <td className={`${td} font-medium text-slate-900`}>{g.name}</td>
                  <td className={`${td} text-right font-semibold tabular-nums text-emerald-700`}>{percent(g.discountPercent)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatNumber(g.customers, lang)}</td>
                  {manage ? <EditDeleteCell name={g.name} onEdit={() => setEditing(g)} onDelete={() => setDeleting(g)} /> : null}
                </tr>
              ))}
            </Table>
          </CardsOrTable>
        )}
      </QueryView>
      {editing ? <GroupDialog group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(g) => ({ id: g.id })}
        title={t('pricing.deleteTitle')}
        description={(g) => t('pricing.deleteText', { name: g.name, count: g.customers, formatted: formatNumber(g.customers, lang) })}
        onDone={(g) => notify.success(t('pricing.deleted'), g.name)}
        failedKey="pricing.notDeleted"
      />
    </Panel>
  );
}

/** A new group, or a group's new name and discount. */
function GroupDialog({ group, onClose }: { group: CustomerGroup | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const form = useForm({
    resolver: zodResolver(customerGroupInputSchema),
    defaultValues: { name: group?.name ?? '', discountPercent: group?.discountPercent ?? '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const done = { onSuccess: () => (notify.success(t('pricing.groupSaved'), form.getValues('name')), onClose()), onError: (err: unknown) => notifyError(t, 'pricing.groupNotSaved', err) };
  const submit = (input: z.output<typeof customerGroupInputSchema>) => (group ? update.mutate({ id: group.id, input }, done) : create.mutate(input, done));
  return (
    <FormDialog
      title={group ? t('pricing.editGroupTitle') : t('pricing.newGroup')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(submit)()}
      pending={create.isPending || update.isPending}
    >
      <Field label={t('pricing.groupName')} error={errors.name ? t('pricing.nameRequired') : undefined}>
        {(control) => <Input {...control} maxLength={60} placeholder={t('pricing.groupNamePlaceholder')} {...form.register('name')} />}
      </Field>
      <Field label={t('pricing.groupDiscount')} hint={t('pricing.percentHint', { max: DISCOUNT_MAX_PERCENT })} error={errors.discountPercent ? t('pricing.percentInvalid', { max: DISCOUNT_MAX_PERCENT }) : undefined}>
        {(control) => <Input {...control} inputMode="decimal" placeholder="10" {...form.register('discountPercent')} />}
      </Field>
    </FormDialog>
  );
}
