import fs from 'node:fs';
import path from 'node:path';

/** A thin client of the admin API, so the CLI works while the server holds the database. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): AdminClient {
    const baseUrl = (env.WAYBILL_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`).replace(/\/+$/, '');
    let token = env.WAYBILL_ADMIN_TOKEN;
    if (!token) {
      const file = path.join(path.resolve(env.WAYBILL_DATA_DIR ?? './data'), 'admin-token');
      if (fs.existsSync(file)) token = fs.readFileSync(file, 'utf8').trim();
    }
    if (!token) throw new Error('Set WAYBILL_ADMIN_TOKEN (or run next to the data dir that holds admin-token)');
    return new AdminClient(baseUrl, token);
  }

  async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}/admin/v1${route}`, {
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
