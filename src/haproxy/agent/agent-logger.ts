/** The logging surface the agent needs; a pino logger satisfies it. */
export interface AgentLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const silentAgentLogger: AgentLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
