/** The payments tab and the top-up dialog, as the dashboard shows them, loaded on demand (docs/ARCHITECTURE.md#layers). */
export { PaymentsTab } from './PaymentsTab';
export { TopUpDialog } from './TopUpDialog';
