/** Outgoing mail: the mailer and the message templates. */
export * from './mailer';
export * from './templates';
