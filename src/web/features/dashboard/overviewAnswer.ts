import { useEffect } from 'react';
import type { OrderOverview } from '../../../core/contracts/orders';
import { fetchJson, request, useLoaded, type Loaded } from '../../islands/answers';
import { OVERVIEW_PATH } from './keys';

/**
 * The dashboard's overview as a page of islands holds it (islands/answers.ts), for ./api.islands.ts
 * and ./cache.islands.ts: asked for once with a plain fetch, and again when something changed.
 */
const OVERVIEW = 'dashboard:overview';
const loadOverview = () => fetchJson<OrderOverview>(OVERVIEW_PATH);

export const reloadOverview = () => request(OVERVIEW, loadOverview, true);

export function useOverviewAnswer(): Loaded<OrderOverview> {
  useEffect(() => void request(OVERVIEW, loadOverview), []);
  return useLoaded(OVERVIEW, loadOverview);
}
