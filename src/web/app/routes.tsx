import { redirect, type RouteObject } from 'react-router';
import { isLanguage } from '../../core/i18n';
import { preferredLanguage } from '../lib/language';
import { ErrorPage } from './ErrorPage';
import { RootLayout } from './RootLayout';
import { page } from './page';

/**
 * The route table. Public pages live under `/:lang`; a first segment that is not a language gets
 * the stored language put in front (spec 01 §2). Routes the specs list without a prefix sit at
 * the top level. Every page is its own chunk.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: ErrorPage,
    children: [
      {
        index: true,
        loader: ({ request }) => redirect(`/${preferredLanguage(request)}${new URL(request.url).search}`),
      },
      {
        path: ':lang',
        loader: ({ params, request }) => {
          if (isLanguage(params.lang)) return null;
          const url = new URL(request.url);
          return redirect(`/${preferredLanguage(request)}${url.pathname}${url.search}`);
        },
        children: [
          { index: true, ...page(() => import('../features/home/HomePage')) },
          { path: '*', ...page(() => import('./NotFoundPage')) },
        ],
      },
    ],
  },
];
