import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { CONSULTATION_SERVICES, consultationSchema, SUPPORT_LIMITS, type ConsultationInput, type ConsultationService } from '../../../core/contracts/support';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { authDialog, useMe } from '../auth';
import { sendConsultation, SupportApiError } from './api';
import { consultationDialog, useConsultationState } from './consultation';

/** Names the services pages show (their `services` namespace), mapped to consultation topics. */
const SERVICES_PAGE_NAMES: Record<string, ConsultationService> = {
  'items.social-media-marketing.name': 'smm',
  'items.google-ads.name': 'google_ads',
  'items.youtube-ads.name': 'youtube_ads',
  'items.seo.name': 'seo',
  'items.logo-design.name': 'logo',
  'items.website.name': 'website',
  'items.tv-radio-ads.name': 'tv_radio',
  'items.facebook-instagram-ads.name': 'facebook_instagram_ads',
  'additional.groups.engagement.name': 'social_engagement',
  'additional.groups.instagram.name': 'instagram_engagement',
  'additional.groups.tiktok.name': 'tiktok_marketing',
  'additional.groups.youtube.name': 'youtube_growth',
  'consult.general': 'general',
};

const selectClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-rose-500';

/** The consultation request (docs/rules.md#support), for signed-in customers; loaded on first open. */
export default function ConsultationDialog() {
  const { t, i18n } = useTranslation('support');
  const { open, hint } = useConsultationState();
  const me = useMe().data;
  const id = useId();

  const serviceFor = (value: string | null): ConsultationService | '' => {
    if (!value) return '';
    if ((CONSULTATION_SERVICES as readonly string[]).includes(value)) return value as ConsultationService;
    const wanted = value.trim().toLocaleLowerCase();
    const own = CONSULTATION_SERVICES.find((s) => t(`consultation.services.${s}`).toLocaleLowerCase() === wanted);
    if (own) return own;
    if (!i18n.hasResourceBundle(i18n.language, 'services')) return '';
    const fromPage = Object.entries(SERVICES_PAGE_NAMES).find(([key]) => i18n.t(`services:${key}`).toLocaleLowerCase() === wanted);
    return fromPage?.[1] ?? '';
  };

  const form = useForm<ConsultationInput>({
    resolver: zodResolver(consultationSchema),
    defaultValues: { name: '', email: '', phone: '', service: '' as ConsultationService, message: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // Each opening starts from the customer's own details and the service the button was for.
  useEffect(() => {
    if (!open) return;
    form.reset({ name: me?.fullName ?? '', email: me?.email ?? '', phone: '', service: serviceFor(hint) as ConsultationService, message: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await sendConsultation(values);
      toast.success(t('consultation.success'), { description: t('consultation.successText') });
      consultationDialog.close();
    } catch (err) {
      if (err instanceof SupportApiError && err.code === 'UNAUTHENTICATED') {
        consultationDialog.remember(values.service);
        authDialog.open('login');
        toast.info(t('consultation.needsSignIn'));
        return;
      }
      toast.error(t('consultation.failedTitle'), { description: t('consultation.failedText') });
    }
  });

  const field = (name: keyof ConsultationInput) => ({
    id: `${id}-${name}`,
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `${id}-${name}-err` : undefined,
  });
  const error = (name: keyof ConsultationInput) => (
    <FieldError id={`${id}-${name}-err`}>{errors[name]?.message ? t(`validation.${errors[name]!.message}`) : undefined}</FieldError>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : consultationDialog.close())}
      title={t('consultation.title')}
      description={t('consultation.description')}
      closeLabel={t('consultation.close')}
      className="max-w-xl"
    >
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="consultation-form">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-name`}>{t('consultation.fields.name')}</Label>
            <Input autoComplete="name" maxLength={SUPPORT_LIMITS.name} placeholder={t('consultation.placeholders.name')} {...field('name')} {...form.register('name')} />
            {error('name')}
          </div>
          <div>
            <Label htmlFor={`${id}-email`}>{t('consultation.fields.email')}</Label>
            <Input type="email" autoComplete="email" maxLength={SUPPORT_LIMITS.email} placeholder={t('consultation.placeholders.email')} {...field('email')} {...form.register('email')} />
            {error('email')}
          </div>
          <div>
            <Label htmlFor={`${id}-phone`}>{t('consultation.fields.phone')}</Label>
            <Input type="tel" autoComplete="tel" maxLength={SUPPORT_LIMITS.phoneMax} placeholder={t('consultation.placeholders.phone')} {...field('phone')} {...form.register('phone')} />
            {error('phone')}
          </div>
          <div>
            <Label htmlFor={`${id}-service`}>{t('consultation.fields.service')}</Label>
            <select className={selectClass} {...field('service')} {...form.register('service')}>
              <option value="">{t('consultation.servicePlaceholder')}</option>
              {CONSULTATION_SERVICES.map((s) => (
                <option key={s} value={s}>
                  {t(`consultation.services.${s}`)}
                </option>
              ))}
            </select>
            {error('service')}
          </div>
        </div>
        <div>
          <Label htmlFor={`${id}-message`}>{t('consultation.fields.message')}</Label>
          <Textarea rows={4} maxLength={SUPPORT_LIMITS.message} placeholder={t('consultation.placeholders.message')} {...field('message')} {...form.register('message')} />
          {error('message')}
        </div>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => consultationDialog.close()}>
            {t('consultation.close')}
          </Button>
          <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
            {isSubmitting ? t('consultation.submitting') : t('consultation.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
