/** Live updates to open pages: other features publish through the hub. */
export * from './hub';
