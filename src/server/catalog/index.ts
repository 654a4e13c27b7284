/** The provider catalogue: what other features may use of it. */
export * from './paramTexts';
export * from './service';
export * from './jobs';
export * from './manage';
export { FIGURES_MIN_ORDERS, FIGURES_SAMPLE, serviceFigures } from './figures';
export * from './sources';
