import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import {
  createTicketSchema,
  SUPPORT_LIMITS,
  TICKET_PRIORITIES,
  TICKET_REQUESTS,
  type CreateTicketInput,
  type TicketRequest,
  type TicketView,
} from '../../../core/contracts/support';
import { Button } from '../../components/ui/Button';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { useCreateTicket } from './api';
import { errorText } from '../../lib/errorText';
import { OrderPicker } from './OrderPicker';

/** A new submission's key: the same key sent twice answers the first ticket (docs/rules.md#support). */
const newKey = () => `t-${crypto.randomUUID()}`;

const selectClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0';

/**
 * Title and description are required; priority defaults to normal. A ticket about orders names
 * the request and the customer's orders; choosing a request fills in a title and a description
 * the customer has not written themselves (docs/rules.md#support).
 */
export function NewTicketForm({ onCreated, onCancel }: { onCreated: (ticket: TicketView) => void; onCancel: () => void }) {
  const { t } = useTranslation('support');
  const id = useId();
  const create = useCreateTicket();
  const [key, setKey] = useState(newKey);
  const form = useForm<CreateTicketInput>({
    resolver: zodResolver(createTicketSchema),
    defaultValues: { title: '', description: '', priority: 'normal', request: undefined, orders: undefined },
  });
  const { errors } = form.formState;
  const message = (key?: string) => (key ? t(`validation.${key}`) : undefined);
  const request = form.watch('request');
  const chosen = form.watch('orders') ?? [];
  const ordersError = errors.orders?.message ?? (errors.orders as unknown as { root?: { message?: string } } | undefined)?.root?.message;

  /** The texts a request fills in, in every kind: replaced on a change only while the customer has not written their own. */
  const filled = (field: 'title' | 'description') => new Set(TICKET_REQUESTS.map((r) => t(`request.${field}.${r}`)));
  function chooseRequest(next: TicketRequest | undefined) {
    form.setValue('request', next, { shouldValidate: form.formState.isSubmitted });
    if (!next) form.setValue('orders', undefined, { shouldValidate: form.formState.isSubmitted });
    for (const field of ['title', 'description'] as const) {
      const now = form.getValues(field).trim();
      if (now === '' || filled(field).has(now)) form.setValue(field, next ? t(`request.${field}.${next}`) : '', { shouldValidate: form.formState.isSubmitted });
    }
  }

  const submit = form.handleSubmit(async (values) => {
    try {
      const ticket = await create.mutateAsync({ ...values, key });
      toast.success(t('newTicket.created'));
      form.reset();
      setKey(newKey());
      onCreated(ticket);
    } catch (err) {
      toast.error(t('newTicket.failed'), { description: errorText(t, err, 'support') });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="rounded-2xl border border-brand-100 bg-white p-5 shadow-sm sm:p-6" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-bold text-slate-900">
        {t('newTicket.title')}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{t('newTicket.description')}</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-[1fr_12rem]">
        <div className="sm:col-span-2">
          <Label htmlFor={`${id}-r`}>{t('request.field')}</Label>
          <select
            id={`${id}-r`}
            className={selectClass}
            value={request ?? ''}
            onChange={(e) => chooseRequest((TICKET_REQUESTS as readonly string[]).includes(e.target.value) ? (e.target.value as TicketRequest) : undefined)}
            aria-describedby={`${id}-r-hint`}
          >
            <option value="">{t('request.none')}</option>
            {TICKET_REQUESTS.map((r) => (
              <option key={r} value={r}>
                {t(`request.kinds.${r}`)}
              </option>
            ))}
          </select>
          <p id={`${id}-r-hint`} className="mt-1 text-xs text-slate-500">
            {request ? t(`request.hints.${request}`) : t('request.hints.none')}
          </p>
        </div>
        {request ? (
          <div className="min-w-0 sm:col-span-2">
            <OrderPicker
              value={chosen}
              onChange={(numbers) => form.setValue('orders', numbers, { shouldValidate: form.formState.isSubmitted })}
              invalid={!!ordersError}
              describedBy={ordersError ? `${id}-o-err` : undefined}
            />
            <FieldError id={`${id}-o-err`}>{message(ordersError)}</FieldError>
          </div>
        ) : null}
        <div>
          <Label htmlFor={`${id}-t`}>{t('newTicket.fields.title')}</Label>
          <Input
            id={`${id}-t`}
            maxLength={SUPPORT_LIMITS.ticketTitle}
            placeholder={t('newTicket.placeholders.title')}
            aria-invalid={!!errors.title}
            aria-describedby={errors.title ? `${id}-t-err` : undefined}
            {...form.register('title')}
          />
          <FieldError id={`${id}-t-err`}>{message(errors.title?.message)}</FieldError>
        </div>
        <div>
          <Label htmlFor={`${id}-p`}>{t('newTicket.fields.priority')}</Label>
          <select id={`${id}-p`} className={selectClass} {...form.register('priority')}>
            {TICKET_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {t(`priority.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor={`${id}-d`}>{t('newTicket.fields.description')}</Label>
          <Textarea
            id={`${id}-d`}
            rows={5}
            maxLength={SUPPORT_LIMITS.ticketDescription}
            placeholder={t('newTicket.placeholders.description')}
            aria-invalid={!!errors.description}
            aria-describedby={errors.description ? `${id}-d-err` : undefined}
            {...form.register('description')}
          />
          <FieldError id={`${id}-d-err`}>{message(errors.description?.message)}</FieldError>
        </div>
      </div>
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel}>
          {t('newTicket.cancel')}
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting} aria-busy={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('newTicket.submitting') : t('newTicket.submit')}
        </Button>
      </div>
    </form>
  );
}
