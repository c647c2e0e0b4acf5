/**
 * Where the command-line clients find the service: WAYBILL_URL, or else this machine on PORT (8080 when
 * neither is set). `origin` says which, so that a command that reaches nothing can tell the operator why it
 * looked there.
 */
export interface ServiceAddress {
  /** Without a trailing slash. */
  url: string;
  origin: 'WAYBILL_URL' | 'PORT' | 'default';
}

export function serviceAddress(env: NodeJS.ProcessEnv = process.env): ServiceAddress {
  const address: ServiceAddress = env.WAYBILL_URL
    ? { url: env.WAYBILL_URL.replace(/\/+$/, ''), origin: 'WAYBILL_URL' }
    : { url: `http://127.0.0.1:${env.PORT || 8080}`, origin: env.PORT ? 'PORT' : 'default' };
  if (!isHttpUrl(address.url)) {
    const variable = address.origin === 'WAYBILL_URL' ? `WAYBILL_URL (${env.WAYBILL_URL})` : `PORT (${env.PORT})`;
    throw new Error(
      `${variable} does not make an http:// or https:// address; set WAYBILL_URL=http://host:port, e.g. http://localhost:8080`,
    );
  }
  return address;
}

/** The address as it may be printed: a user name and password in it are left out. */
function withoutCredentials(text: string): string {
  const url = new URL(text);
  if (!url.username && !url.password) return text;
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const ORIGINS: Record<ServiceAddress['origin'], string> = {
  WAYBILL_URL: 'That address is the one in WAYBILL_URL.',
  PORT: 'That is this machine on PORT (WAYBILL_URL is not set).',
  default: 'That is the default address (neither WAYBILL_URL nor PORT is set).',
};

/** A request that never got an answer: nothing listens at the address, the host is unknown, the connection broke. */
export class ServiceUnreachableError extends Error {
  constructor(
    readonly address: ServiceAddress,
    cause: unknown,
  ) {
    super(
      [
        `cannot reach the Waybill service at ${withoutCredentials(address.url)} (${reason(cause)}).`,
        `${ORIGINS[address.origin]} Start the service (npx waybill start), or point this command at it:`,
        '  WAYBILL_URL=http://host:port   the address of the service',
        '  PORT=port                      a service on this machine that listens on another port (when WAYBILL_URL is not set)',
      ].join('\n'),
      { cause },
    );
  }
}

/** fetch, with a request that gets no answer thrown as a ServiceUnreachableError naming the address. */
export function fetchFrom(address: ServiceAddress, doFetch: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await doFetch(input, init);
    } catch (error) {
      throw new ServiceUnreachableError(address, error);
    }
  };
}

/**
 * fetch fails with "fetch failed" and keeps what happened in its cause, whose message is empty when the
 * cause is an AggregateError (every address of a host name refused).
 */
function reason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AggregateError && cause.errors.length > 0) return [...new Set(cause.errors.map(reason))].join('; ');
  if (cause instanceof Error) return cause.message || String((cause as NodeJS.ErrnoException).code ?? cause.name);
  return String(cause);
}
