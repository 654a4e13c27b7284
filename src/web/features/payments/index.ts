/** The payments' query keys, which the dashboard refreshes (docs/ARCHITECTURE.md#layers); its tab and dialog are in ./tabs.ts. */
export { paymentKeys } from './keys';
