/** The reseller API and its keys: what other features (the admin area, the job runner) may use. */
export * from './actions';
export * from './jobs';
export * from './keys';
