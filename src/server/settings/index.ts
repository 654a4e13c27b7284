/** Site settings: what other features may use of them. */
export * from './service';
