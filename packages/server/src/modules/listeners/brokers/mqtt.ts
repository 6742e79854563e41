import mqtt, { type IPublishPacket, type MqttClient, type Packet } from 'mqtt';
import { type Connect, endSignal, quietly } from './consumer.ts';

/** The shared subscription group every instance joins: each message goes to one of them. */
const SHARE_GROUP = 'gdb';

/** The client id of a listener on a host: stable, so that its session (and what it was not yet sent) outlives a restart. */
function mqttClientId(hostname: string, listenerId: string): string {
  return `gdb-${hostname.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40)}-${listenerId}`;
}

/** A message's id for dropping redeliveries: its `msgid` user property (a hash of the payload is not an id). */
function idOf(packet: IPublishPacket): string | undefined {
  const value = packet.properties?.userProperties?.msgid;
  const id = Array.isArray(value) ? value[0] : value;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

type SendPacket = (packet: Packet, cb?: () => void, ...rest: unknown[]) => void;

/**
 * mqtt.js acknowledges a QoS 1 message (PUBACK) as soon as its handler returns, and reads the next
 * one only then: to acknowledge once a batch is stored, the PUBACKs are held here (the handler goes
 * on at once) and sent when `ack` is called. Held ones are never sent once the connection ends:
 * the broker delivers those messages again to the session.
 */
function holdAcks(client: MqttClient): (messageId: number | undefined) => void {
  const target = client as unknown as { _sendPacket: SendPacket };
  const send = target._sendPacket.bind(client);
  const held = new Map<number, Packet>();
  target._sendPacket = (packet, cb, ...rest) => {
    if (packet.cmd === 'puback' && packet.messageId !== undefined) {
      held.set(packet.messageId, packet);
      cb?.();
      return;
    }
    send(packet, cb, ...rest);
  };
  return (messageId) => {
    const packet = messageId === undefined ? undefined : held.get(messageId);
    if (!packet || messageId === undefined) return;
    held.delete(messageId);
    quietly(() => send(packet));
  };
}

/**
 * MQTT 5 through mqtt.js: a shared subscription `$share/gdb/<topic>` at QoS 1, with a session
 * kept by the broker (clean start off, a client id stable per host and listener), so that the
 * messages of a stopped instance wait for it. Reconnecting is the listener runtime's (with back-off).
 */
export const connectMqtt: Connect = async (options, deliver) => {
  const client = mqtt.connect(options.url.toString(), {
    clientId: mqttClientId(options.hostname, options.listenerId),
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 24 * 3600, receiveMaximum: Math.min(65_535, options.prefetch) },
    username: options.username,
    password: options.password,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });
  const ack = holdAcks(client);
  const { ended, end } = endSignal();
  let closing = false;
  // Errors are reported by the end of the connection ('close'): an 'error' without a listener would throw.
  client.on('error', () => undefined);
  client.on('message', (_topic, payload, packet) => {
    deliver({ id: idOf(packet), body: payload, ack: () => ack(packet.messageId) });
  });
  client.on('close', () => end(closing ? undefined : new Error('The connection to the broker ended.')));
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
      client.once('close', () => reject(new Error('The broker closed the connection.')));
    });
    client.on('error', (error) => end(closing ? undefined : error));
    await client.subscribeAsync(`$share/${SHARE_GROUP}/${options.queue}`, { qos: 1 });
  } catch (error) {
    closing = true;
    client.end(true);
    throw error;
  }
  return {
    ended,
    close: async () => {
      closing = true;
      await client.endAsync(true);
    },
  };
};
