/** The balance's top-up and payment history, as the dashboard shows them (docs/ARCHITECTURE.md#layers). */
export { paymentKeys } from './api';
export { PaymentsTab } from './PaymentsTab';
export { TopUpDialog } from './TopUpDialog';
