import type { Generated } from 'kysely';

/**
 * Table types. Portable across SQLite and PostgreSQL: times are ISO 8601 UTC text
 * (lexically ordered), JSON documents are text, booleans are 0/1 integers.
 */
export interface AccountsTable {
  id: Generated<number>;
  account_uuid: string;
  name: string;
  features: string;
  created_at: string;
  updated_at: string;
}

export interface ApiCredentialsTable {
  id: Generated<number>;
  account_id: number;
  client_id: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CarrierConfigsTable {
  id: Generated<number>;
  account_id: number;
  carrier_reference: string;
  carrier_id: string;
  booking_outbound: number;
  booking_return: number;
  settings_sealed: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_credentials: ApiCredentialsTable;
  carrier_configs: CarrierConfigsTable;
}
