/** Orders: what other features (the admin area) may use of them. */
export { ordersDeps } from './routes';
export * from './refunds';
export * from './cancels';
export * from './service';
export * from './submission';
export { isUpstreamDrip, moveOnAfter, routeOf } from './routing';
export * from './sync';
export * from './jobs';
export * from './worker';
export * from './dripfeed';
export * from './staff';
export { checkProviderFunds, providerAlerts, providerBalances, FUNDS_RETRY_MS, type ProviderAlert } from './funds';
