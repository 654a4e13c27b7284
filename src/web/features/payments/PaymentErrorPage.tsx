import { LayoutDashboard, LifeBuoy, XCircle } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { useSearchParams } from 'react-router';
import type { PageMeta } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { ResultCard } from './ResultCard';

export const ns = ['payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('payments:error.title')} · ${site.site_name}` });

/** The longest error text taken from the address; the rest is cut off. */
const ERROR_MAX = 300;

/**
 * /payment-error?order=…&error=…: the payment did not go through. The error from the address is
 * shown as plain text; nothing was credited.
 */
export default function PaymentErrorPage() {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  const [params] = useSearchParams();
  const reference = (params.get('order') ?? '').trim();
  const error = (params.get('error') ?? '').trim().slice(0, ERROR_MAX);

  return (
    <main id="main" className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12 sm:py-20">
      <ResultCard
        tone="danger"
        icon={<XCircle className="size-9" aria-hidden="true" />}
        title={t('error.title')}
        testId="payment-error"
        status="error"
        details={[
          { label: t('result.order'), value: reference || '—' },
          ...(error ? [{ label: t('error.reason'), value: error, plain: true }] : []),
        ]}
        actions={
          <>
            <ButtonLink to={`/${lang}/dashboard?payment=error`} className="w-full sm:w-auto">
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {t('result.dashboard')}
            </ButtonLink>
            <ButtonLink to={`/${lang}/contact`} variant="outline" className="w-full sm:w-auto">
              <LifeBuoy className="size-4" aria-hidden="true" />
              {t('error.support')}
            </ButtonLink>
          </>
        }
      >
        <p>{t('error.text')}</p>
      </ResultCard>
    </main>
  );
}
