import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';

const trustProxy = (value?: string) => loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told, and never every hop', () => {
    expect(trustProxy()).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    // `true` as it was written before: the one proxy nearest the server.
    expect(trustProxy('true')).toBe(1);
    expect(trustProxy('2')).toBe(2);
  });

  it('takes a list of proxy addresses and ranges', () => {
    expect(trustProxy('10.0.0.5, 192.168.0.0/16,::1,fd00::/8')).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8']);
    expect(trustProxy('loopback,10.1.2.3')).toEqual(['loopback', '10.1.2.3']);
  });

  it('refuses anything else with the forms it takes', () => {
    for (const bad of ['maybe', '10.0.0.300', '10.0.0.0/33', '10.0.0.1,', 'localhost', '1.5']) {
      expect(() => trustProxy(bad), bad).toThrow(/TRUST_PROXY must be false, a number of proxy hops/);
    }
  });
});
