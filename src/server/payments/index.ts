/** Card payments: what other features (the job runner) may use of them. */
export * from './jobs';
export { countFlaggedPayments, listPaymentsForStaff, paymentsCsv, reversePayment, type StaffPayment } from './service';
export { availableMethods, ensurePaymentMethods, staffMethods, updateMethod } from './methods';
export { attachReceipt, receiptOf, reviewBankTransfer, RECEIPT_MAX_BYTES } from './bank';
export { activeBonusRules, checkCoupon, createBonusRule, createCoupon, creditedByTopUp, staffBonuses, updateBonusRule, updateCoupon } from './bonuses';
export { canRefund, refundPayment, resolvePendingRefunds } from './refund';
