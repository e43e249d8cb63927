/**
 * Newline framing of a Stratum connection with a cap on line length. The socket is read as UTF-8
 * text (Stratum is ASCII JSON); a line longer than the cap, or a partial line that grows past it,
 * is an overflow and the connection is dropped by the caller.
 */
export type FrameResult = 'ok' | 'overflow';

/**
 * Requests for methods a dialect does not know that one connection may send before it is closed.
 * Real miners probe a method or two they hope the pool supports (mining.get_transactions,
 * mining.multi_version); a stream of unknown methods is a flood, and answering each one costs the
 * other miners on the event loop.
 */
export const MAX_UNKNOWN_METHODS = 16;

/** The id a request is answered with: a number or string, else null. */
export type RequestId = number | string | null;

/** A JSON-RPC request read from one line (every dialect's lines are JSON-RPC objects). */
export interface LineRequest {
  id: RequestId;
  method: string;
  message: Record<string, unknown>;
}

/**
 * One line as a request: the request; a reason to close the connection (not JSON, or not a
 * JSON-RPC object); or undefined for an object without a method (a reply to something the pool
 * asked, or junk: nothing to answer).
 */
export function readRequest(line: string): LineRequest | 'not JSON' | 'not a JSON-RPC object' | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return 'not a JSON-RPC object';
  const object = message as Record<string, unknown>;
  if (typeof object.method !== 'string') return undefined;
  const id = typeof object.id === 'number' || typeof object.id === 'string' ? object.id : null;
  return { id, method: object.method, message: object };
}

export class LineFramer {
  private partial = '';

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => boolean,
  ) {}

  /**
   * Feeds received text; calls onLine for every complete non-empty line (CR stripped). Stops and
   * returns 'overflow' when a line is over the cap; stops early (returning 'ok') when onLine
   * returns false (the connection is being closed).
   */
  push(text: string): FrameResult {
    let start = 0;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.partial = this.partial.length === 0 ? text : this.partial + text;
      return this.tooLong(this.partial) ? 'overflow' : 'ok';
    }
    while (newline !== -1) {
      let line = text.slice(start, newline);
      if (this.partial.length > 0) {
        line = this.partial + line;
        this.partial = '';
      }
      if (this.tooLong(line)) return 'overflow';
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.length > 0 && !this.onLine(line)) return 'ok';
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    if (start < text.length) {
      this.partial = text.slice(start);
      if (this.tooLong(this.partial)) return 'overflow';
    }
    return 'ok';
  }

  /** Bytes of an unfinished line still buffered. */
  get pendingLength(): number {
    return this.partial.length;
  }

  private tooLong(line: string): boolean {
    // UTF-16 length <= UTF-8 bytes <= 3 x length: count bytes only when it could matter.
    if (line.length > this.maxLineBytes) return true;
    if (line.length * 3 <= this.maxLineBytes) return false;
    return Buffer.byteLength(line, 'utf8') > this.maxLineBytes;
  }
}
