/** Card payments: what other features (the job runner) may use of them. */
export * from './jobs';
export { completedRevenueQepik, listPaymentsForStaff } from './service';
