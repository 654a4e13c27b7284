import { CheckCircle2, Send } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import type { ContactMessageInput } from '../../../core/contracts/support';
import { SUPPORT_LIMITS } from '../../../core/contracts/supportConstants';
import { Button } from '../../components/ui/Button';
import { FieldError, Input, Label, Textarea } from '../../components/ui/Input';
import { useMe, type Me } from '../auth';
import { focusField } from '../../lib/focusField';
import { toast } from '../../lib/toast';

type Field = 'name' | 'email' | 'subject' | 'message';
type Values = Required<ContactMessageInput>;
const FIELDS: readonly Field[] = ['name', 'email', 'subject', 'message'];
const EMPTY: Values = { name: '', email: '', subject: '', message: '', website: '' };
/** An empty form, with a signed-in customer's name and e-mail already in it. */
const blankFor = (me: Me | null | undefined): Values => ({ ...EMPTY, name: me?.fullName ?? '', email: me?.email ?? '' });

/**
 * The message checked with the shared schema (the server's), loaded on the first submit, like the
 * notifications: the page stays light. Each field gets the first refusal of its own, as a message
 * code (`validation.<code>` in the text).
 */
async function check(values: Values) {
  const { contactMessageSchema } = await import('../../../core/contracts/support');
  const result = contactMessageSchema.safeParse(values);
  if (result.success) return { message: result.data, errors: {} };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field)) errors[field] ??= issue.message;
  }
  return { message: null, errors };
}

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
  const [values, setValues] = useState(() => blankFor(me));
  // Fields the visitor typed in since the form was last empty: signing in does not overwrite them.
  const typed = useRef(new Set<keyof Values>());
  // Checked on sending only; a field's message goes away as soon as it is changed.
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  // Signing in (or out) while the page is open: the name and e-mail follow, unless typed over.
  useEffect(() => {
    setValues((v) => ({
      ...v,
      name: typed.current.has('name') ? v.name : (me?.fullName ?? ''),
      email: typed.current.has('email') ? v.email : (me?.email ?? ''),
    }));
  }, [me?.fullName, me?.email]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const checked = await check(values);
      setErrors(checked.errors);
      if (!checked.message) {
        const first = FIELDS.find((f) => checked.errors[f]);
        if (first) focusField(document.getElementById(`${id}-${first}`));
        return;
      }
      // The API client and the error texts load with the first message sent, as the schema does.
      const [{ sendContactMessage }, { errorText }] = await Promise.all([import('./http'), import('../../lib/errorText')]);
      try {
        await sendContactMessage(checked.message);
        toast.success(t('contact.success'), { description: t('contact.successText') });
        typed.current.clear();
        setValues(blankFor(me));
        setSent(true);
      } catch (err) {
        toast.error(t('contact.failed'), { description: errorText(t, err, 'support') });
      }
    } finally {
      setSubmitting(false);
    }
  };

  const register = (name: keyof Values) => ({
    name,
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = e.target.value;
      typed.current.add(name);
      setValues((v) => ({ ...v, [name]: value }));
      setSent(false);
      if (name !== 'website') setErrors((found) => (found[name] ? { ...found, [name]: undefined } : found));
    },
  });
  const field = (name: Field) => ({
    id: `${id}-${name}`,
    ...register(name),
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `${id}-${name}-err` : undefined,
  });
  const error = (name: Field) => <FieldError id={`${id}-${name}-err`}>{errors[name] ? t(`validation.${errors[name]}`) : undefined}</FieldError>;

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
