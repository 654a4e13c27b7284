import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { contactMessageSchema, SUPPORT_LIMITS, type ContactMessageInput } from '../../../core/contracts/support';
import { Button } from '../../components/ui/Button';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { sendContactMessage } from './api';
import { errorText } from './format';

/**
 * The contact page's message form (spec 01 §2, §5): name, e-mail, subject and message, all
 * required. `website` is a honeypot: hidden from people and from assistive technology, so only
 * a bot fills it in.
 */
export function ContactForm() {
  const { t } = useTranslation('support');
  const id = useId();
  const [sent, setSent] = useState(false);
  const form = useForm<ContactMessageInput>({
    resolver: zodResolver(contactMessageSchema),
    defaultValues: { name: '', email: '', subject: '', message: '', website: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await sendContactMessage(values);
      toast.success(t('contact.success'), { description: t('contact.successText') });
      form.reset();
      setSent(true);
    } catch (err) {
      toast.error(t('contact.failed'), { description: errorText(t, err) });
    }
  });

  const field = (name: 'name' | 'email' | 'subject' | 'message') => ({
    id: `${id}-${name}`,
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `${id}-${name}-err` : undefined,
  });
  const error = (name: 'name' | 'email' | 'subject' | 'message') => (
    <FieldError id={`${id}-${name}-err`}>{errors[name]?.message ? t(`validation.${errors[name]!.message}`) : undefined}</FieldError>
  );

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-4" data-testid="contact-form" onChange={() => sent && setSent(false)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-name`}>{t('contact.fields.name')}</Label>
          <Input autoComplete="name" maxLength={SUPPORT_LIMITS.name} placeholder={t('contact.placeholders.name')} {...field('name')} {...form.register('name')} />
          {error('name')}
        </div>
        <div>
          <Label htmlFor={`${id}-email`}>{t('contact.fields.email')}</Label>
          <Input type="email" autoComplete="email" maxLength={SUPPORT_LIMITS.email} placeholder={t('contact.placeholders.email')} {...field('email')} {...form.register('email')} />
          {error('email')}
        </div>
      </div>
      <div>
        <Label htmlFor={`${id}-subject`}>{t('contact.fields.subject')}</Label>
        <Input maxLength={SUPPORT_LIMITS.subject} placeholder={t('contact.placeholders.subject')} {...field('subject')} {...form.register('subject')} />
        {error('subject')}
      </div>
      <div>
        <Label htmlFor={`${id}-message`}>{t('contact.fields.message')}</Label>
        <Textarea rows={6} maxLength={SUPPORT_LIMITS.contactMessage} placeholder={t('contact.placeholders.message')} {...field('message')} {...form.register('message')} />
        {error('message')}
      </div>
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>{t('contact.honeypot')}</label>
        <input id={`${id}-website`} type="text" tabIndex={-1} autoComplete="off" {...form.register('website')} />
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        {sent ? (
          <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-700">
            <CheckCircle2 className="size-4" aria-hidden="true" />
            {t('contact.success')}
          </p>
        ) : (
          <span />
        )}
        <Button type="submit" size="lg" disabled={isSubmitting} aria-busy={isSubmitting}>
          <Send className="size-4" aria-hidden="true" />
          {isSubmitting ? t('contact.submitting') : t('contact.submit')}
        </Button>
      </div>
    </form>
  );
}
