/** The protocol version this package speaks, sent and expected in the `UHP-Version` header. */
export const UHP_VERSION = '2026-08-11';
export const UHP_VERSION_HEADER = 'UHP-Version';
/** Versions are calendar dates; anything else is rejected before it is compared. */
export const UHP_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
