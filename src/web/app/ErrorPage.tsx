import { useTranslation } from '../i18n';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The generic fallback screen (spec 01 §2): status, text or message, and the stack in development. */
export function ErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  let status: number | undefined;
  let message = '';
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message = error.statusText || (typeof error.data === 'string' ? error.data : '');
  } else if (error instanceof Error) {
    message = error.message;
    stack = import.meta.env.DEV ? error.stack : undefined;
  } else if (typeof error === 'string') {
    message = error;
  }
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-2xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <p className="mt-4 text-lg text-slate-700">
        {status ? <strong>{status} </strong> : null}
        {message}
      </p>
      {stack ? <pre className="mt-4 overflow-auto rounded bg-slate-100 p-4 text-xs">{stack}</pre> : null}
      <a href="/" className="mt-8 inline-block rounded bg-brand-600 px-4 py-2 text-white">
        {t('errorPage.reload', { defaultValue: 'Reload' })}
      </a>
    </main>
  );
}
