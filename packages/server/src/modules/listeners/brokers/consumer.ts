import type { Delivery } from '../listener-batches.ts';

/** What a consumer is started with: where, what, as whom, and how many unacknowledged messages it may hold. */
interface ConsumerOptions {
  listenerId: string;
  url: URL;
  queue: string;
  jetStream: boolean;
  username: string | undefined;
  password: string | undefined;
  /** This instance's host name (MQTT: part of a client id stable per host and listener). */
  hostname: string;
  /** Messages delivered and not yet acknowledged, at most. */
  prefetch: number;
}

/** A consumer connected to its broker. */
export interface Consumer {
  /** Settles when the connection ends, with why when it was not closed here. */
  ended: Promise<Error | undefined>;
  /** Ends the connection; the messages not acknowledged go back to the broker. */
  close(): Promise<void>;
}

/** Connects and consumes, handing each message to `deliver`; fails when it cannot connect. */
export type Connect = (options: ConsumerOptions, deliver: (delivery: Delivery) => void) => Promise<Consumer>;

/** Runs an acknowledgement, ignoring that the connection it belongs to has gone (the broker delivers the message again). */
export function quietly(action: () => unknown): void {
  try {
    const result = action();
    if (result instanceof Promise) result.catch(() => undefined);
  } catch {
    // The connection is gone: the message is delivered again and dropped then by its id, if it has one.
  }
}

/** A promise with its resolve function, for an end that an event reports. */
export function endSignal(): { ended: Promise<Error | undefined>; end: (why: Error | undefined) => void } {
  let end: (why: Error | undefined) => void = () => undefined;
  const ended = new Promise<Error | undefined>((resolve) => {
    end = resolve;
  });
  return { ended, end };
}
