// One schema object for Drizzle and drizzle-kit: each domain adds its file here.
export * from './auth';
export * from './settings';
export * from './catalog';
export * from './wallet';
export * from './providers';
export * from './orders';
export * from './accounts';
export * from './bonuses';
export * from './payments';
export * from './admin';
export * from './support';
export * from './reseller';
export * from './discounts';
export * from './analytics';
