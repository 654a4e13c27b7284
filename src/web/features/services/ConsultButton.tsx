import { MessageCircle } from 'lucide-react';
import { island } from '../../islands/island';
import { Button, type ButtonSize, type ButtonVariant } from '../../components/ui/Button';
import { useConsultation } from './useConsultation';

interface ConsultButtonProps {
  /** The topic the consultation form starts with. */
  hint: string;
  label: string;
  withIcon?: boolean;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** A consultation button: the sign-in dialog for a guest, the consultation form for a customer. */
export function ConsultButton({ hint, label, withIcon, ...look }: ConsultButtonProps) {
  const consult = useConsultation();
  return (
    <Button {...look} onClick={() => consult(hint)}>
      {withIcon ? <MessageCircle className="size-5" aria-hidden="true" /> : null}
      {label}
    </Button>
  );
}

// A button that does something only when pressed: woken at the first touch.
export const ConsultButtonIsland = island('ConsultButton', ConsultButton, { wake: 'touched' });
