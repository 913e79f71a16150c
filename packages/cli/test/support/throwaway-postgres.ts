// The server's throwaway PostgreSQL cluster, for CLI tests that run commands against PostgreSQL.
// Test-only: reached by path, never through a package export.
export {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../../../server/test/fixtures/throwaway-postgres.js';
