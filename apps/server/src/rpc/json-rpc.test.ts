import { describe, expect, it } from 'vitest';
import { RawJsonNumber, stringifyRpcBody } from './json-rpc.js';

describe('RPC bodies', () => {
  it('sends amounts to the node as bare JSON numbers with every digit kept', () => {
    const body = stringifyRpcBody({
      params: ['', { addr1: new RawJsonNumber('20999999.99999999') }, 1, 'a "quoted" comment'],
    });
    expect(body).toBe('{"params":["",{"addr1":20999999.99999999},1,"a \\"quoted\\" comment"]}');
    expect(() => new RawJsonNumber('1e5')).toThrow(/not a decimal/);
  });
});
