import { describe, expect, it } from 'vitest';
import { OutboundQueue } from './outbound-queue.ts';

function setup(limits = { maxMessages: 3, maxChars: 1000 }) {
  const sent: string[] = [];
  const events: string[] = [];
  const transport = { open: true, writable: () => transport.open, send: (_e: string, p: unknown) => sent.push(String(p)) };
  const queue = new OutboundQueue(transport, limits, { onOverflow: () => events.push('overflow') });
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

  it('drops everything of a client that falls behind, tells once, and takes nothing more', () => {
    const { sent, events, transport, queue } = setup();
    transport.open = false;
    for (const p of ['1', '2', '3']) expect(queue.push('change', p)).toBe(true);
    expect(queue.push('change', '4')).toBe(false);
    expect(events).toEqual(['overflow']);
    expect(queue.closed).toBe(true);
    expect(queue.length).toBe(0);
    expect(queue.push('exception', { message: 'x' })).toBe(false);
    transport.open = true;
    queue.drain();
    expect(queue.push('change', '6')).toBe(false);
    expect(events).toEqual(['overflow']);
    expect(sent).toEqual([]);
  });

  it('counts characters too', () => {
    const { events, transport, queue } = setup({ maxMessages: 100, maxChars: 10 });
    transport.open = false;
    queue.push('change', '123456');
    queue.push('change', '123456');
    expect(events).toEqual(['overflow']);
  });

  it.each(['init', 'find', 'exception'])('counts %s answers like changes', (event) => {
    const { events, transport, queue } = setup({ maxMessages: 2, maxChars: 1_000_000 });
    transport.open = false;
    for (let i = 0; i < 10; i++) queue.push(event, event === 'exception' ? { message: `m${i}` } : `${event}-${i}`);
    expect(events).toEqual(['overflow']);
    expect(queue.length).toBe(0);
  });
});
