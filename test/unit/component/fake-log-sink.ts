import type { Logger } from 'pino';

import { createLogger, type LogLevel } from '../../../src/observability/logger.js';

/** An in-memory pino destination: every log line, parsed. */
export class FakeLogSink {
  readonly raw: string[] = [];
  readonly logger: Logger;

  constructor(level: LogLevel = 'debug') {
    this.logger = createLogger({
      level,
      name: 'test',
      destination: {
        write: (line: string) => {
          this.raw.push(line);
        },
      },
    });
  }

  /** Parsed lines. */
  get lines(): Record<string, unknown>[] {
    return this.raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Parsed lines whose `msg` contains `text`. */
  withMessage(text: string): Record<string, unknown>[] {
    return this.lines.filter((l) => typeof l['msg'] === 'string' && l['msg'].includes(text));
  }
}
