import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type LeveledParent = Parent & { isLevelEnabled: (level: string) => boolean };
type LogFn = (...args: unknown[]) => void;

/**
 * A request's logger (`request.log`), made only when it is first asked to write a line at an enabled level.
 * Fastify gives every request a child logger bound to its request id, and pino's `child` costs more per
 * request than the token check; most requests log nothing (request lines are at debug), so most never need one.
 * Whatever is written goes through a real child with the same bindings and options as before.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: LeveledParent,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (this.made ?? this.parent.isLevelEnabled(level)) (this.real[level] as LogFn)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    const made = this.made as Parent | null;
    return made?.isLevelEnabled ? made.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child for loggers that can say which levels are enabled; an ordinary
 * child otherwise, and for routes with their own log level.
 */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  const parent = logger as Parent;
  if (typeof parent.isLevelEnabled !== 'function' || options.level !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(parent as LeveledParent, bindings, options) as unknown as FastifyBaseLogger;
}
