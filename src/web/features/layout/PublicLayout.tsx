import { Outlet } from 'react-router';
import { island } from '../../islands/island';
import { ConsultationHost } from '../support';
import { ADDRESS_PARAMS } from '../auth';
import { Footer } from './Footer';
import { Header } from './Header';

// Woken at the first touch (its links are links, the phone menu opens from the page's first
// script), or at idle when the address asks its account menu for something (the sign-in dialog,
// whose text then comes with the page).
const HeaderIsland = island('Header', Header, { wake: 'touched', query: ADDRESS_PARAMS, text: ['auth'] });
// Woken when a page asks for the dialog (support/consultation.ts).
const ConsultationIsland = island('ConsultationHost', ConsultationHost, { wake: 'asked' });

/**
 * Header, the page (each page renders its own <main id="main">), footer. On a public page only
 * the header is live (islands/island.tsx), and the consultation dialog's host once it is asked for.
 */
export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900">
      <HeaderIsland />
      <div className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <Footer />
      <ConsultationIsland />
    </div>
  );
}
