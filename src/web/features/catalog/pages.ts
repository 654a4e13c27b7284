/**
 * The order form's parts, for other features' pages (the dashboard), which load on demand
 * (docs/ARCHITECTURE.md#layers). Kept out of ./index.ts, which the header loads on every page.
 * The order page itself is its own chunk (app/routes.tsx): only its navigation state's type is here.
 */
export { indexCatalog } from './catalogIndex';
export { OrderDetails } from './OrderDetails';
export { dripInput, issueMessage, orderIssues, orderTotal, parseQuantity, serverParamIssue, unitPrice } from './orderForm';
export type { OrderNavigationState } from './OrderPage';
export { GroupPicker, PlatformPicker } from './Pickers';
export { ServiceInfo } from './ServiceInfo';
export { ServicePicker } from './ServicePicker';
export { StepHeading } from './StepHeading';
export { useOrderForm, type OrderFormOutput } from './useOrderForm';
