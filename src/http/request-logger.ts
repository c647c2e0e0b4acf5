import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type LeveledParent = Parent & { isLevelEnabled: (level: string) => boolean };
type LogFn = (...args: unknown[]) => void;
type ChildMaker = (bindings: Bindings, options: ChildLoggerOptions) => FastifyBaseLogger;

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
    private readonly make: ChildMaker,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.make(this.bindings, this.options);
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
 * A lazy child for loggers that can say which levels are enabled; an ordinary child otherwise, and for a level
 * of its own (a route's). `make` makes the real child (the parent's own `child` by default).
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
  make: ChildMaker = (b, o) => logger.child(b, o),
): FastifyBaseLogger {
  const parent = logger as Parent;
  if (typeof parent.isLevelEnabled !== 'function' || options.level !== undefined) return make(bindings, options);
  return new LazyRequestLogger(parent as LeveledParent, bindings, options, make) as unknown as FastifyBaseLogger;
}

/**
 * Makes the children of Fastify's logger lazy: Fastify makes one per request through `child`. (A
 * `childLoggerFactory` of our own would do the same, but Fastify then checks every request's logger for its
 * seven methods, which costs about as much as the lazy child saves.)
 */
export function lazyChildren(logger: FastifyBaseLogger): void {
  if (typeof (logger as Parent).isLevelEnabled !== 'function') return;
  const make: ChildMaker = logger.child.bind(logger);
  logger.child = ((bindings: Bindings, options?: ChildLoggerOptions) =>
    lazyRequestLogger(logger, bindings, options ?? {}, make)) as FastifyBaseLogger['child'];
}
