import pino from 'pino';

/** JSON logs to stdout. Level from LOG_LEVEL; tests run silent unless asked. */
export function createLogger(level: string = 'info') {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.cookie', 'password', '*.password', 'headers.authorization'], remove: true },
  });
}
export type Logger = ReturnType<typeof createLogger>;
