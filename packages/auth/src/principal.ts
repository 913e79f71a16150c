/** The owner of API keys and of every object the server keeps. */
export interface Principal {
  /** Stable id (`prn_…`); objects are scoped by it. */
  readonly id: string;
  /** Unique human-readable name (`--principal NAME`). */
  readonly name: string;
}

/** The name of the single principal a server started with `--no-auth` acts as. */
export const LOCAL_PRINCIPAL_NAME = 'local';
