import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { hasLanguagePrefix, settleLanguage, useLanguage } from '../../lib/language';
import { ConsultationHost } from '../support/ConsultationHost';
import { Footer } from './Footer';
import { Header } from './Header';

/** Header, the page (each page renders its own <main id="main">), footer. */
export function PublicLayout() {
  const lang = useLanguage();
  const { pathname } = useLocation();
  const prefixed = hasLanguagePrefix(pathname);

  useEffect(() => {
    if (prefixed) settleLanguage(lang);
  }, [lang, prefixed]);

  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900">
      <Header />
      <div className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <Footer />
      <ConsultationHost />
    </div>
  );
}
