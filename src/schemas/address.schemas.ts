import { Type } from '@sinclair/typebox';
import { Nullable, NullableMembers, ReadOnly } from './common.js';

const str = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

/** Address fields as the interface lists them, with their length limits. */
const addressFields = {
  address_name: str(50),
  location_type: str(50),
  entity_reference: str(50),
  salutation: str(50),
  first_name: str(150, 'First or full name'),
  last_name: str(150),
  line1: str(150),
  line2: str(150),
  line3: str(150),
  street_name: str(500),
  house_number: str(50),
  city: str(75),
  postal_code: str(25),
  state_or_province: str(75),
  region: str(75),
  country: str(75, 'Country name, resolved and stored as the identified name; give this or country_code'),
  country_code: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2; give this or country' }),
  email: Type.String({ maxLength: 100, format: 'email' }),
  phone: Type.String({ maxLength: 30, description: '+, country calling code, number' }),
  fax: Type.String({ maxLength: 16, pattern: '^\\+[0-9]{1,15}$', description: '+ followed by up to 15 digits' }),
  company: str(150),
  tax_id: str(100),
};

export const ADDRESS_FIELDS = Object.keys(addressFields) as Array<keyof typeof addressFields>;

const addressMembers = NullableMembers(addressFields);

/** An address as written: any of its fields, each may be null (read as left out). */
export const AddressInput = Type.Partial(Type.Object(addressMembers), { additionalProperties: false });

/** An address on update, as the details show it: `full`, composed on output, is accepted and ignored. */
export const AddressUpdateInput = Type.Partial(Type.Object({ ...addressMembers, full: ReadOnly() }), { additionalProperties: false });

export const AddressOutput = Type.Object({
  ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, Nullable(Type.String())])),
  full: Type.String({ description: 'All address fields combined into one string' }),
});

export const ADDRESS_ROLES = ['recipient_address', 'sender_address', 'to_address', 'from_address', 'return_address'] as const;
export type AddressRole = (typeof ADDRESS_ROLES)[number];
