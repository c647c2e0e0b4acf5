import fs from 'node:fs';
import path from 'node:path';
import { fetchFrom, type ServiceAddress, serviceAddress } from './service-address.js';

/** A thin client of the admin API, so the CLI works while the server holds the database. */
export class AdminClient {
  private readonly request: typeof fetch;

  constructor(
    private readonly address: ServiceAddress,
    private readonly token: string,
  ) {
    this.request = fetchFrom(address);
  }

  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): AdminClient {
    const address = serviceAddress(env);
    let token = env.WAYBILL_ADMIN_TOKEN;
    if (!token) {
      const file = path.join(path.resolve(env.WAYBILL_DATA_DIR ?? './data'), 'admin-token');
      if (fs.existsSync(file)) token = fs.readFileSync(file, 'utf8').trim();
    }
    if (!token) throw new Error('Set WAYBILL_ADMIN_TOKEN (or run next to the data dir that holds admin-token)');
    return new AdminClient(address, token);
  }

  async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await this.request(`${this.address.url}/admin/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : null;
    if (!response.ok) {
      const problems = fieldProblems(parsed?.errors ?? parsed?.data?.errors);
      const detail = problems.length > 0 ? problems.join('\n') : text;
      throw new Error(`${method} ${route} → ${response.status}: ${detail}`);
    }
    return parsed as T;
  }
}

/** Field errors of the envelope as dotted paths: `settings.client_secret: Required: …`. */
export function fieldProblems(errors: unknown, path: string[] = []): string[] {
  if (Array.isArray(errors)) return errors.filter((m) => typeof m === 'string').map((m) => `${path.join('.')}: ${m}`);
  if (!errors || typeof errors !== 'object') return [];
  return Object.entries(errors).flatMap(([key, value]) => fieldProblems(value, [...path, key]));
}
