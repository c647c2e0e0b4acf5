import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ReturnPolicyRow } from '../../db/repositories/return-policies.repository.js';
import { checkedReturnPolicy, defaultReturnPolicy, type ReturnPolicy, type ReturnPolicyInput } from './return-policy.js';

/** An account's policy in force, with its portal reference. */
export interface AccountReturnPolicy {
  account_id: number;
  portal_reference: string;
  policy: ReturnPolicy;
  updated_at: string | null;
}

/** A new portal reference: 128 random bits, URL-safe (22 characters). */
function newPortalReference(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Each account's returns policy (GET/PUT /v5/returns/policy/) and the portal reference the consumer's portal is
 * found by. An account gets its reference, and the default policy, the first time its policy is read.
 */
export class ReturnPolicyService {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    /** The service's public address, for `portal_url`. */
    private readonly publicUrl: string,
  ) {}

  async of(accountId: number): Promise<AccountReturnPolicy> {
    const row =
      (await this.repos.returnPolicies.of(accountId)) ??
      (await this.repos.returnPolicies.ensure({
        account_id: accountId,
        portal_reference: newPortalReference(),
        policy: JSON.stringify(defaultReturnPolicy()),
        created_at: this.clock.now().toISOString(),
      }));
    return read(row);
  }

  /** The policy of the portal with this reference; undefined for a reference no account has. */
  async byPortalReference(portalReference: string): Promise<AccountReturnPolicy | undefined> {
    const row = await this.repos.returnPolicies.byPortalReference(portalReference);
    return row ? read(row) : undefined;
  }

  /** As GET /v5/returns/policy/ answers it. */
  async shown(accountId: number) {
    return this.view(await this.of(accountId));
  }

  /** Replaces the policy (PUT): checked whole, stored whole; the portal reference stays. */
  async put(accountId: number, input: ReturnPolicyInput) {
    const policy = checkedReturnPolicy(input);
    await this.of(accountId);
    await this.repos.returnPolicies.put(accountId, JSON.stringify(policy), this.clock.now().toISOString());
    return this.shown(accountId);
  }

  /** The consumer's portal of a reference. */
  portalUrl(portalReference: string): string {
    return `${this.publicUrl}/returns/${portalReference}`;
  }

  private view(current: AccountReturnPolicy) {
    return {
      portal_reference: current.portal_reference,
      portal_url: this.portalUrl(current.portal_reference),
      ...current.policy,
      updated_at: current.updated_at,
    };
  }
}

/** A stored policy over the defaults, so that a field added later has its default in policies saved before. */
function read(row: ReturnPolicyRow): AccountReturnPolicy {
  const stored = JSON.parse(row.policy) as Partial<ReturnPolicy>;
  return {
    account_id: row.account_id,
    portal_reference: row.portal_reference,
    policy: { ...defaultReturnPolicy(), ...stored },
    updated_at: row.updated_at,
  };
}
