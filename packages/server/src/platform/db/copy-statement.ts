import type pg from 'pg';

/**
 * A COPY statement given to a connection of the pool as a query object of our own (node-postgres
 * has none for a binary COPY): it settles once the server is ready for the next statement, or at
 * once when the connection is lost.
 */
export abstract class CopyStatement implements pg.Submittable {
  private failure: Error | undefined;
  private settled = false;
  private settle: (failure: Error | undefined) => void = () => undefined;
  abstract submit(connection: pg.Connection): void;
  /** Runs on `client`: resolves when the server has answered the statement, rejects with its error. */
  runOn(client: pg.PoolClient): Promise<void> {
    return new Promise((resolve, reject) => {
      this.settle = (failure) => (failure ? reject(failure) : resolve());
      client.query(this);
    });
  }
  handleCommandComplete(_message: { text?: string }): void {}
  /** An error answered by the server (a ReadyForQuery follows) or the connection lost (none does): settled at once. */
  handleError(error: Error): void {
    this.failure ??= error;
    this.end();
  }
  handleReadyForQuery(): void {
    this.end();
  }
  private end(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(this.failure);
  }
}

/** Runs a COPY statement on a connection of the pool; a connection whose COPY failed is closed, not handed back. */
export async function runCopy(pool: pg.Pool, statement: CopyStatement): Promise<void> {
  const client = await pool.connect();
  try {
    await statement.runOn(client);
    client.release();
  } catch (error) {
    client.release(true);
    throw error;
  }
}
