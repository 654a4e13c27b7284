/** Customer discounts and groups: what other features (orders, the reseller API, accounts, the admin area) use. */
export * from './service';
