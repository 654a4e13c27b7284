/** The site's own content (blog, FAQ, the agency's services): what other features may use of it. */
export * from './service';
export * from './manage';
