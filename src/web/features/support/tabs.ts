/** The tickets, as the dashboard shows them in a tab, which loads with it on demand (docs/ARCHITECTURE.md#layers). */
export { SupportTab } from './SupportTab';
