/** What other features may use of the admin area: the audit log. */
export * from './audit';
