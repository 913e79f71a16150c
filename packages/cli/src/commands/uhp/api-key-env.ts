/** The environment variable read when `--api-key` is not given (keeps keys out of shell history). */
export const UHP_API_KEY_ENV = 'ARBITER_UHP_API_KEY';
/** Read after {@link UHP_API_KEY_ENV}: the key an Arbiter user already exported for the server. */
export const ARBITER_API_KEY_ENV = 'ARBITER_API_KEY';
