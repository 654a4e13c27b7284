/** Mass orders: many orders from one pasted text, each through the orders service. */
export { massOrderRoutes } from './routes';
export { placeMassOrder } from './service';
