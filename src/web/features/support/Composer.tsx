import { zodResolver } from '@hookform/resolvers/zod';
import { SendHorizontal } from 'lucide-react';
import { useId, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/ui/Button';
import { Textarea } from '../../components/ui/Input';
import { SUPPORT_LIMITS, ticketMessageSchema, type TicketMessageInput } from '../../../core/contracts/support';

export interface ComposerLabels {
  label: string;
  placeholder: string;
  hint: string;
  send: string;
  sending: string;
}

/**
 * The message box under a thread. Enter sends, Shift+Enter starts a new line; text that is empty
 * once trimmed cannot be sent. The text stays when sending fails, so nothing typed is lost.
 */
export function Composer({ onSend, labels, disabled }: { onSend: (text: string) => Promise<unknown>; labels: ComposerLabels; disabled?: boolean }) {
  // The message contract of tickets: the text as sent is the trimmed one.
  const form = useForm<TicketMessageInput>({ resolver: zodResolver(ticketMessageSchema), defaultValues: { message: '' } });
  const sending = form.formState.isSubmitting;
  const id = useId();
  const empty = form.watch('message').trim() === '';

  const submit = form.handleSubmit(async ({ message }) => {
    if (disabled) return;
    try {
      await onSend(message);
      form.reset();
    } catch {
      // The caller tells the user; the text stays in the box.
    }
  });

  function send() {
    if (empty || sending || disabled) return;
    void submit();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  return (
    <form
      className="border-t border-slate-200 bg-white p-3 sm:p-4"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label htmlFor={id} className="sr-only">
        {labels.label}
      </label>
      <div className="flex items-stretch gap-2">
        <Textarea
          id={id}
          {...form.register('message')}
          onKeyDown={onKeyDown}
          placeholder={labels.placeholder}
          maxLength={SUPPORT_LIMITS.message}
          rows={2}
          aria-describedby={`${id}-hint`}
          disabled={disabled}
          className="max-h-40 min-h-0! resize-y"
        />
        <Button type="submit" disabled={empty || sending || disabled} aria-busy={sending} className="h-auto shrink-0 px-4" aria-label={sending ? labels.sending : labels.send}>
          <SendHorizontal className="size-5" aria-hidden="true" />
          <span className="hidden sm:inline">{sending ? labels.sending : labels.send}</span>
        </Button>
      </div>
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
        {labels.hint}
      </p>
    </form>
  );
}
