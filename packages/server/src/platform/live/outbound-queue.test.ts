import { describe, expect, it } from 'vitest';
import { OutboundQueue } from './outbound-queue.ts';

function setup(limits = { maxMessages: 3, maxChars: 1000 }) {
  const sent: string[] = [];
  const events: string[] = [];
  const transport = { open: true, writable: () => transport.open, send: (_e: string, p: unknown) => sent.push(String(p)) };
  const queue = new OutboundQueue(transport, limits, {
    onOverflow: () => events.push('overflow'),
    onRecover: () => events.push('recover'),
  });
  return { sent, events, transport, queue };
}

describe('outbound queue', () => {
  it('sends at once while the transport is writable, and in order after it drains', () => {
    const { sent, transport, queue } = setup();
    queue.push('change', 'a');
    transport.open = false;
    queue.push('change', 'b');
    queue.push('change', 'c');
    expect(sent).toEqual(['a']);
    queue.drain();
    expect(sent).toEqual(['a']);
    transport.open = true;
    queue.drain();
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(queue.length).toBe(0);
  });

  it('drops the changes of a client that falls behind, then asks for a fresh copy once it drains', () => {
    const { sent, events, transport, queue } = setup();
    transport.open = false;
    for (const p of ['1', '2', '3']) expect(queue.push('change', p)).toBe(true);
    expect(queue.push('change', '4')).toBe(false);
    expect(events).toEqual(['overflow']);
    expect(queue.stale).toBe(true);
    expect(queue.length).toBe(0);
    expect(queue.push('change', '5')).toBe(false);
    transport.open = true;
    queue.drain();
    expect(events).toEqual(['overflow', 'recover']);
    expect(queue.stale).toBe(false);
    expect(sent).toEqual([]);
    queue.push('change', '6');
    expect(sent).toEqual(['6']);
  });

  it('counts characters too', () => {
    const { events, transport, queue } = setup({ maxMessages: 100, maxChars: 10 });
    transport.open = false;
    queue.push('change', '123456');
    queue.push('change', '123456');
    expect(events).toEqual(['overflow']);
  });

  it('never drops init, find or exception messages', () => {
    const { sent, transport, queue } = setup({ maxMessages: 1, maxChars: 5 });
    transport.open = false;
    queue.push('init', 'init-1', true);
    queue.push('change', 'x');
    expect(queue.stale).toBe(true);
    queue.push('init', 'init-2', true);
    transport.open = true;
    queue.drain();
    expect(sent).toEqual(['init-1', 'init-2']);
  });
});
