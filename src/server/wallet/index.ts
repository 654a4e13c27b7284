/** The wallet's ledger: every balance change goes through credit and debit. */
export * from './ledger';
export { walletRoutes } from './routes';
