import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A free loopback port (the service is restarted on the same one). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The real service (`waybill start`: HTTP and workers in one process) as a child process, on its own data,
 * killed with SIGKILL and started again on the same data and port.
 */
export class ServiceProcess {
  readonly url: string;
  private child: ChildProcess | null = null;
  /** The last lines the process wrote (warnings and errors), for failure messages. */
  private stderrTail = '';
  starts = 0;
  kills = 0;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the process and waits until /healthz answers. */
  async start(timeoutMs = 60_000): Promise<void> {
    const inherited = { ...process.env };
    // The database and Redis are exactly what the test chooses.
    delete inherited.DATABASE_URL;
    delete inherited.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'start'], {
      cwd: root,
      env: { ...inherited, LOG_LEVEL: 'warn', WAYBILL_BANNER: 'false', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.starts++;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${this.stderrTail}`);
      const ok = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`the service did not answer /healthz within ${timeoutMs} ms: ${this.stderrTail}`);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or drained. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.kills++;
    this.child = null;
  }

  /** Stops the last process for good (SIGKILL too: the test never relies on a graceful stop). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** The running process's id, or null when none runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get diagnostics(): string {
    return this.stderrTail;
  }
}

/** An access token from a running service's token endpoint (client credentials). */
export async function issueToken(url: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${url}/auth/oauth/token/`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
