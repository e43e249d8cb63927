import { describe, expect, it } from 'vitest';
import { LineFramer, readRequest } from './framing.js';

function collect(max = 64) {
  const lines: string[] = [];
  const framer = new LineFramer(max, (line) => {
    lines.push(line);
    return true;
  });
  return { lines, framer };
}

describe('line framing', () => {
  it('splits lines across chunks and strips carriage returns', () => {
    const { lines, framer } = collect();
    expect(framer.push('{"a":1}\r\n{"b"')).toBe('ok');
    expect(framer.push(':2}\n\n{"c":3}\n')).toBe('ok');
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(framer.pendingLength).toBe(0);
  });

  it('reports an overflow when a line passes the cap without a newline', () => {
    const { framer } = collect(16);
    expect(framer.push('x'.repeat(10))).toBe('ok');
    expect(framer.push('x'.repeat(7))).toBe('overflow');
  });

  it('reports an overflow for a complete line over the cap', () => {
    const { lines, framer } = collect(16);
    expect(framer.push(`${'y'.repeat(17)}\n{"ok":1}\n`)).toBe('overflow');
    expect(lines).toEqual([]);
  });

  it('counts the cap in UTF-8 bytes, not characters', () => {
    const { framer } = collect(16);
    expect(framer.push('ééééééééé')).toBe('overflow'); // 9 characters, 18 bytes
  });

  it('stops delivering lines once the handler says the connection is closing', () => {
    const seen: string[] = [];
    const framer = new LineFramer(64, (line) => {
      seen.push(line);
      return false;
    });
    framer.push('1\n2\n3\n');
    expect(seen).toEqual(['1']);
  });
});

describe('reading a line as a JSON-RPC request', () => {
  it('gives the id, method and object of a request, and null for an id that is neither number nor string', () => {
    expect(readRequest('{"id":7,"method":"mining.subscribe","params":[]}')).toEqual({
      id: 7,
      method: 'mining.subscribe',
      message: { id: 7, method: 'mining.subscribe', params: [] },
    });
    expect(readRequest('{"id":{"x":1},"method":"login"}')).toMatchObject({ id: null, method: 'login' });
  });

  it('says why a connection is closed for a line that is not JSON or not an object', () => {
    expect(readRequest('{"id":1,')).toBe('not JSON');
    expect(readRequest('[1,2]')).toBe('not a JSON-RPC object');
    expect(readRequest('null')).toBe('not a JSON-RPC object');
  });

  it('gives nothing to answer for an object without a method (a reply to the pool)', () => {
    expect(readRequest('{"id":3,"result":"cgminer/4.12"}')).toBeUndefined();
  });
});
