/**
 * The order form's parts, for other features' pages (the dashboard), which load on demand
 * (docs/ARCHITECTURE.md#layers). Kept out of ./index.ts, which the header loads on every page.
 * The order page itself is its own chunk (app/routes.tsx): only its navigation state's type is here.
 */
export { indexCatalog, resolveChoice } from './catalogIndex';
export { customerFees, dripInput, issueMessage, orderIssues, orderTotal, parseQuantity, serverParamIssue, unitPrice } from './orderForm';
export type { OrderNavigationState } from './OrderPage';
export { OrderSteps } from './OrderSteps';
export { PriceLines } from './PriceLines';
export { useCustomerFees } from './useCustomerFees';
export { servicesAnswer } from './api';
export { useOrderForm, type OrderFormOutput } from './useOrderForm';
