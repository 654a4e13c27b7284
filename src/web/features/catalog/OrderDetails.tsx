import { memo, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from '../../i18n';
import type { LocalizedParam, PublicService } from '../../../core/contracts/catalog';
import type { OrderInputIssue } from '../../../core/orderRules';
import { OTHER_PLATFORM, platformDisplayName } from '../../../core/platforms';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { StepHeading } from './StepHeading';
import { DRIP_BOUNDS, dripInput, issueMessage, linkExample, type OrderDraft } from './orderForm';
import { formatNumber } from '../../lib/format';

const selectClass =
  'block h-11 w-full rounded-xl border border-slate-300 bg-white px-3.5 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-rose-500';

/** One field of the order: its label (marked when required), the control, its hint and its error, with ids after `id`. */
function OrderField({
  id,
  label,
  required,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: string;
  required: boolean;
  hint?: string;
  error: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>
        {label}
        {required ? <Required /> : null}
      </Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

function Required() {
  const { t } = useTranslation('catalog');
  return (
    <>
      {' '}
      <span aria-hidden="true" className="text-rose-600">
        *
      </span>
      <span className="sr-only">({t('fields.required')})</span>
    </>
  );
}

/** Link, quantity and the service's extra params; messages come from the shared rules' codes. */
export const OrderDetails = memo(function OrderDetails({
  platform,
  service,
  params,
  paramsLoading,
  draft,
  onDraft,
  onTouch,
  issues,
  locale,
}: {
  platform: string;
  service: PublicService | undefined;
  /** In the page's language, as the service detail serves them. */
  params: readonly LocalizedParam[];
  paramsLoading: boolean;
  draft: OrderDraft;
  onDraft: Dispatch<SetStateAction<OrderDraft>>;
  onTouch: (field: string) => void;
  issues: ReadonlyMap<string, OrderInputIssue>;
  locale: string;
}) {
  const { t } = useTranslation('catalog');
  const message = (field: string) => {
    const issue = issues.get(field);
    return issue ? issueMessage(t, issue, platform, params, locale) : undefined;
  };
  const linkError = message('link');
  const quantityError = message('quantity');

  return (
    <section aria-labelledby="step-details" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <StepHeading id="step-details" step={3} title={t('steps.details')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <OrderField id="order-link" label={t('fields.link')} required hint={platform === OTHER_PLATFORM ? t('fields.linkHintOther') : t('fields.linkHint', { platform: platformDisplayName(platform) })} error={linkError} className="sm:col-span-2">
          <Input
            id="order-link"
            data-field="link"
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={draft.link}
            placeholder={linkExample(platform)}
            onChange={(e) => onDraft((d) => ({ ...d, link: e.target.value }))}
            onBlur={() => onTouch('link')}
            aria-required="true"
            aria-invalid={linkError ? true : undefined}
            aria-describedby="order-link-hint order-link-error"
            className="h-11"
          />
        </OrderField>

        <OrderField
          id="order-quantity"
          label={t('fields.quantity')}
          required
          hint={
            service
              ? service.step > 1
                ? t('fields.quantityHintStep', { min: formatNumber(service.min, locale), max: formatNumber(service.max, locale), step: formatNumber(service.step, locale) })
                : t('fields.quantityHint', { min: formatNumber(service.min, locale), max: formatNumber(service.max, locale) })
              : t('fields.quantityChoose')
          }
          error={quantityError}
        >
          <Input
            id="order-quantity"
            data-field="quantity"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={draft.quantity}
            disabled={!service}
            onChange={(e) => onDraft((d) => ({ ...d, quantity: e.target.value }))}
            onBlur={() => onTouch('quantity')}
            aria-required="true"
            aria-invalid={quantityError ? true : undefined}
            aria-describedby="order-quantity-hint order-quantity-error"
            className="h-11 tabular-nums"
          />
        </OrderField>

        {service?.dripfeed ? <DripFields service={service} draft={draft} onDraft={onDraft} locale={locale} /> : null}

        {paramsLoading && service?.hasParams ? (
          <p className="self-center text-sm text-slate-500">{t('fields.paramsLoading')}</p>
        ) : null}

        {params.map((param) => {
          const id = `order-param-${param.fieldName}`;
          const field = `params.${param.fieldName}`;
          const error = message(field);
          const value = draft.params[param.fieldName] ?? '';
          const label = param.fieldLabel || param.fieldName;
          const common = {
            id,
            'data-field': field,
            value,
            onBlur: () => onTouch(field),
            'aria-required': param.required || undefined,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': `${id}-hint ${id}-error`,
          } as const;
          const set = (v: string) => onDraft((d) => ({ ...d, params: { ...d.params, [param.fieldName]: v } }));
          return (
            <OrderField
              key={param.fieldName}
              id={id}
              label={label}
              required={param.required}
              hint={param.description}
              error={error}
              className={param.fieldType === 'textarea' ? 'sm:col-span-2' : undefined}
            >
              {param.fieldType === 'dropdown' ? (
                <select {...common} className={selectClass} onChange={(e) => set(e.target.value)}>
                  <option value="">{t('fields.choose')}</option>
                  {param.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.name}
                    </option>
                  ))}
                </select>
              ) : param.fieldType === 'textarea' ? (
                <Textarea {...common} placeholder={param.placeholder} rows={4} onChange={(e) => set(e.target.value)} />
              ) : (
                <Input {...common} className="h-11" placeholder={param.placeholder} onChange={(e) => set(e.target.value)} />
              )}
            </OrderField>
          );
        })}
      </div>
    </section>
  );
});

/** Drip-feed (services that allow it): ticked, the quantity above is sent `runs` times, one every `interval` minutes. */
function DripFields({ service, draft, onDraft, locale }: { service: PublicService; draft: OrderDraft; onDraft: Dispatch<SetStateAction<OrderDraft>>; locale: string }) {
  const { t } = useTranslation('catalog');
  const drip = dripInput(service, draft);
  const invalid = drip && 'invalid' in drip ? drip.invalid : null;
  const set = (field: 'runs' | 'interval', v: string) => onDraft((d) => ({ ...d, drip: { runs: d.drip?.runs ?? '', interval: d.drip?.interval ?? '', [field]: v } }));
  const fmt = (n: number) => formatNumber(n, locale);
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-4 sm:col-span-2" data-testid="drip-fields">
      <label className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <input
          type="checkbox"
          data-field="drip"
          checked={Boolean(draft.drip)}
          onChange={(e) => onDraft((d) => ({ ...d, drip: e.target.checked ? { runs: '2', interval: '60' } : undefined }))}
          className="size-4 rounded border-slate-300"
        />
        {t('fields.dripfeed')}
      </label>
      <p className="mt-1 text-xs text-slate-600">{t('fields.dripfeedHint')}</p>
      {draft.drip ? (
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          {(['runs', 'interval'] as const).map((field) => (
            <OrderField
              key={field}
              id={`order-${field}`}
              label={t(`fields.${field}`)}
              required={false}
              error={invalid === field ? t(`fields.${field}Invalid`, { min: fmt(DRIP_BOUNDS[field].min), max: fmt(DRIP_BOUNDS[field].max) }) : undefined}
            >
              <Input
                id={`order-${field}`}
                data-field={field}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                value={draft.drip?.[field] ?? ''}
                onChange={(e) => set(field, e.target.value)}
                aria-invalid={invalid === field ? true : undefined}
                aria-describedby={`order-${field}-error`}
                className="h-11 tabular-nums"
              />
            </OrderField>
          ))}
        </div>
      ) : null}
    </div>
  );
}
