import pino from 'pino';

/** Structured logs; credentials and personal data never reach them (headers and bodies are not logged). */
export const createLogger = (level: string, destination?: pino.DestinationStream) =>
  pino(
    {
      level,
      base: { service: 'medilearn' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.password', '*.passwordHash', '*.token', '*.authToken'],
        censor: '[redacted]',
      },
    },
    destination,
  );
