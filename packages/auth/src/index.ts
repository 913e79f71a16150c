export {
  type AuthenticationFailureRenderer,
  authenticate,
  authPlugin,
  renderRoleRefusal,
  requirePrincipal,
} from './auth-plugin.js';
export {
  type AuthenticationFailureCode,
  type AuthenticationResult,
  type Authenticator,
  createKeyAuthenticator,
  createNoAuthAuthenticator,
  type KeyVerifier,
} from './authenticator.js';
export {
  type AuthenticatedKey,
  DEFAULT_ROUTE_ROLES,
  KEY_ROLE_ALLOWS,
  KEY_ROLES,
  type KeyRole,
} from './key-role.js';
export { LOCAL_PRINCIPAL_NAME, type Principal } from './principal.js';
