import { CheckCircle2, Send } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import type { ContactMessageInput, contactMessageSchema } from '../../../core/contracts/support';
import { SUPPORT_LIMITS } from '../../../core/contracts/supportConstants';
import { Button } from '../../components/ui/Button';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { errorText } from '../../lib/errorText';
import { useMe, type Me } from '../auth';
import { sendContactMessage } from './http';
import { focusField } from '../../lib/focusField';

type Field = 'name' | 'email' | 'subject' | 'message';
const FIELDS: readonly Field[] = ['name', 'email', 'subject', 'message'];
const EMPTY: Required<ContactMessageInput> = { name: '', email: '', subject: '', message: '', website: '' };
type ContactMessage = ReturnType<typeof contactMessageSchema.parse>;
/** An empty form, with a signed-in customer's name and e-mail already in it. */
const blankFor = (me: Me | null | undefined): Required<ContactMessageInput> => ({ ...EMPTY, name: me?.fullName ?? '', email: me?.email ?? '' });

/**
 * The shared schema (the server's) as the form's resolver, loaded with its resolver on the first
 * submit, like the notifications: the page stays light.
 */
const contactResolver: Resolver<ContactMessageInput, unknown, ContactMessage> = async (values, context, options) => {
  const [{ contactMessageSchema: schema }, { zodResolver }] = await Promise.all([import('../../../core/contracts/support'), import('@hookform/resolvers/zod')]);
  return zodResolver(schema)(values, context, options);
};

/**
 * The contact page's message form (docs/rules.md#support): name, e-mail, subject and message, all
 * required, checked with the same schema the server uses; a signed-in customer finds their name
 * and e-mail filled in. `website` is a honeypot: hidden from people and from assistive
 * technology, so only a bot fills it in.
 */
export function ContactForm() {
  const { t } = useTranslation('support');
  const id = useId();
  const me = useMe().data;
  // Checked on sending only; a field's message goes away as soon as it is changed.
  const form = useForm<ContactMessageInput, unknown, ContactMessage>({
    resolver: contactResolver,
    defaultValues: blankFor(me),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { errors, isSubmitting: submitting } = form.formState;
  const [sent, setSent] = useState(false);

  // Signing in (or out) while the page is open: the name and e-mail follow, unless typed over.
  useEffect(() => {
    for (const [name, value] of [
      ['name', me?.fullName ?? ''],
      ['email', me?.email ?? ''],
    ] as const) {
      if (!form.getFieldState(name).isDirty) form.resetField(name, { defaultValue: value });
    }
  }, [me?.fullName, me?.email, form]);

  const submit = form.handleSubmit(
    async (message) => {
      const { toast } = await import('sonner');
      try {
        await sendContactMessage(message);
        toast.success(t('contact.success'), { description: t('contact.successText') });
        form.reset(blankFor(me));
        setSent(true);
      } catch (err) {
        toast.error(t('contact.failed'), { description: errorText(t, err, 'support') });
      }
    },
    (found) => {
      const first = FIELDS.find((f) => found[f]);
      if (first) focusField(document.getElementById(`${id}-${first}`));
    },
  );

  const register = (name: keyof ContactMessageInput) =>
    form.register(name, {
      onChange: () => {
        setSent(false);
        if (name !== 'website' && form.getFieldState(name).error) form.clearErrors(name);
      },
    });
  const field = (name: Field) => ({
    id: `${id}-${name}`,
    ...register(name),
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `${id}-${name}-err` : undefined,
  });
  const error = (name: Field) => <FieldError id={`${id}-${name}-err`}>{errors[name]?.message ? t(`validation.${errors[name].message}`) : undefined}</FieldError>;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="relative mt-6 space-y-4" data-testid="contact-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-name`}>{t('contact.fields.name')}</Label>
          <Input autoComplete="name" maxLength={SUPPORT_LIMITS.name} placeholder={t('contact.placeholders.name')} {...field('name')} />
          {error('name')}
        </div>
        <div>
          <Label htmlFor={`${id}-email`}>{t('contact.fields.email')}</Label>
          <Input type="email" autoComplete="email" maxLength={SUPPORT_LIMITS.email} placeholder={t('contact.placeholders.email')} {...field('email')} />
          {error('email')}
        </div>
      </div>
      <div>
        <Label htmlFor={`${id}-subject`}>{t('contact.fields.subject')}</Label>
        <Input maxLength={SUPPORT_LIMITS.subject} placeholder={t('contact.placeholders.subject')} {...field('subject')} />
        {error('subject')}
      </div>
      <div>
        <Label htmlFor={`${id}-message`}>{t('contact.fields.message')}</Label>
        <Textarea rows={6} maxLength={SUPPORT_LIMITS.contactMessage} placeholder={t('contact.placeholders.message')} {...field('message')} />
        {error('message')}
      </div>
      <div aria-hidden="true" className="absolute -left-[9999px] top-0 h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>{t('contact.honeypot')}</label>
        <input id={`${id}-website`} type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
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
        <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting}>
          <Send className="size-4" aria-hidden="true" />
          {submitting ? t('contact.submitting') : t('contact.submit')}
        </Button>
      </div>
    </form>
  );
}
