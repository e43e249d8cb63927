// Why an address was refused, in one vocabulary for every family (Bitcoin, Monero, Kaspa).
export const ADDRESS_ERROR_REASONS = ['checksum', 'network', 'unsupported', 'mweb', 'format'] as const;
export type AddressErrorReason = (typeof ADDRESS_ERROR_REASONS)[number];

export class AddressError extends Error {
  readonly reason: AddressErrorReason;
  constructor(reason: AddressErrorReason, message: string) {
    super(message);
    this.name = 'AddressError';
    this.reason = reason;
  }
}
