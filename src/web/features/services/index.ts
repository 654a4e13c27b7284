/** The team's local services, as the home page lists them (docs/ARCHITECTURE.md#layers). */
export { fetchLocalServices, startPrice } from './api';
export { serviceGradient, serviceIcon } from './serviceIcons';
