/** The server's pino logger. Secrets are redacted by path as a second line of defence; the first is never
 * putting them in a log object at all. */
import pino, { type Logger } from 'pino';

export function createLogger(level: string, name = 'confbus-server'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'headers.authorization',
        'req.headers.authorization',
        'secret',
        '*.secret',
      ],
      censor: '******',
    },
  });
}
