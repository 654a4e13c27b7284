/** Support: what other features (the admin area) may use of it. */
export { countOpenTickets, countWaitingTickets } from './service';
