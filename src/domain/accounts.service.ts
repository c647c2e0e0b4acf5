import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountRow, AccountsRepository } from '../db/repositories/accounts.repository.js';
import type { CredentialsRepository } from '../db/repositories/credentials.repository.js';
import { randomToken, sha256Hex } from '../secrets.js';
import type { AuthService } from './auth.service.js';
import { NotFoundError } from './errors.js';

export interface AccountView {
  account_uuid: string;
  name: string;
  features: string[];
  /** Unknown request fields refused (4030) instead of ignored. */
  strict_fields: boolean;
  created_date: string;
  updated_date: string;
}

export function accountView(row: AccountRow): AccountView {
  return {
    account_uuid: row.account_uuid,
    name: row.name,
    features: JSON.parse(row.features),
    strict_fields: row.strict_fields === 1,
    created_date: row.created_at,
    updated_date: row.updated_at,
  };
}

/** Accounts and their API credentials, managed by operators through the admin API. */
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly credentials: CredentialsRepository,
    private readonly auth: AuthService,
    private readonly clock: Clock,
  ) {}

  async create(input: { name: string; features?: string[]; strict_fields?: boolean }): Promise<AccountView> {
    const row = await this.accounts.insert({
      account_uuid: randomUUID(),
      name: input.name,
      features: JSON.stringify(uniqueSorted(input.features ?? [])),
      strict_fields: input.strict_fields ? 1 : 0,
      at: this.clock.now().toISOString(),
    });
    return accountView(row);
  }

  async list(): Promise<AccountView[]> {
    return (await this.accounts.list()).map(accountView);
  }

  async get(accountUuid: string): Promise<AccountView> {
    return accountView(await this.require(accountUuid));
  }

  async update(accountUuid: string, changes: { name?: string; features?: string[]; strict_fields?: boolean }): Promise<AccountView> {
    const account = await this.require(accountUuid);
    const row = await this.accounts.update(account.id, {
      name: changes.name,
      features: changes.features ? JSON.stringify(uniqueSorted(changes.features)) : undefined,
      strict_fields: changes.strict_fields === undefined ? undefined : changes.strict_fields ? 1 : 0,
      at: this.clock.now().toISOString(),
    });
    await this.forgetCachedCredentials(account.id);
    return accountView(row);
  }

  /** New API credentials; the secret is returned this once and only its SHA-256 hash is kept. */
  async createCredentials(accountUuid: string): Promise<{ client_id: string; client_secret: string }> {
    const account = await this.require(accountUuid);
    const clientId = `wbc_${randomBytes(16).toString('hex')}`;
    const clientSecret = `wbs_${randomToken(32)}`;
    await this.credentials.insert({
      account_id: account.id,
      client_id: clientId,
      secret_hash: sha256Hex(clientSecret),
      at: this.clock.now().toISOString(),
    });
    return { client_id: clientId, client_secret: clientSecret };
  }

  async listCredentials(accountUuid: string): Promise<Array<{ client_id: string; created_date: string; revoked_date: string | null }>> {
    const account = await this.require(accountUuid);
    const rows = await this.credentials.listForAccount(account.id);
    return rows.map((r) => ({ client_id: r.client_id, created_date: r.created_at, revoked_date: r.revoked_at }));
  }

  /** Revokes credentials; every token issued from them is refused from the next request on. */
  async revokeCredentials(accountUuid: string, clientId: string): Promise<void> {
    const account = await this.require(accountUuid);
    const revoked = await this.credentials.revoke(account.id, clientId, this.clock.now().toISOString());
    this.auth.invalidate([clientId]);
    if (!revoked) throw new NotFoundError(`No active credentials ${clientId} in this account`);
  }

  async require(accountUuid: string): Promise<AccountRow> {
    const row = await this.accounts.findByUuid(accountUuid);
    if (!row) throw new NotFoundError(`No account ${accountUuid}`);
    return row;
  }

  private async forgetCachedCredentials(accountId: number): Promise<void> {
    const rows = await this.credentials.listForAccount(accountId);
    this.auth.invalidate(rows.map((r) => r.client_id));
  }
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort();
}
