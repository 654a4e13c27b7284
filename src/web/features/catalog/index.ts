/**
 * The catalogue as the header and the home page use it (docs/ARCHITECTURE.md#layers). The
 * header is on every page, so this entry stays light; the order form, which the dashboard
 * reuses, is in ./pages.ts.
 */
export { catalogKeys, platformsLoader, usePlatforms, useReloadCatalog, useServiceDetail, useServices } from './api';
export { PlatformMenu } from './PlatformMenu';
