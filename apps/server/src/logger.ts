import { pino, type Logger } from 'pino';
import type { Config } from './config/index.js';

export type { Logger } from 'pino';

/** Structured logs; pretty when a terminal is attached (or when config says so). */
export function createLogger(config: Pick<Config, 'log'>): Logger {
  const pretty = config.log.pretty ?? process.stdout.isTTY;
  return pino({
    level: config.log.level,
    base: { pid: process.pid },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss' } } }
      : {}),
  });
}
