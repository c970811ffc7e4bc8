/** The logging surface code outside the composition root uses (pino's, narrowed). */
export type Log = {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
  debug(object: object, message?: string): void;
};

export const silentLog: Log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
