/**
 * Keeps one connection's outgoing lines in request order. A request answered later (a share
 * waiting for its batch hash or a worker thread) takes a ticket; any line sent while a ticket is
 * open waits behind it, and lines leave as soon as everything before them is answered. With no
 * ticket open (the usual case) a line is written at once: nothing is allocated.
 */
export class ReplyOrder {
  /** Lines in order from ticket `base` on; undefined = not answered yet. */
  private readonly slots: (string | undefined)[] = [];
  private base = 0;
  /** Index in `slots` of the first line not written yet. */
  private first = 0;

  constructor(
    private readonly write: (line: string) => void,
    /** Called when the last open ticket is answered. */
    private readonly onSettled: () => void,
  ) {}

  /** Whether an earlier request is still unanswered. */
  get pending(): boolean {
    return this.slots.length > 0;
  }

  /** Lines (answered or not) held behind an unanswered request. */
  get held(): number {
    return this.slots.length - this.first;
  }

  /** Reserves the place of a request answered later. */
  ticket(): number {
    return this.base + this.slots.push(undefined) - 1;
  }

  /** A line with no ticket: written now unless an earlier request is unanswered. */
  send(line: string): void {
    if (this.slots.length === 0) this.write(line);
    else this.slots.push(line);
  }

  /** The answer for a ticket; writes it and every line behind it that is ready. */
  answer(ticket: number, line: string): void {
    const index = ticket - this.base;
    if (index < this.first || index >= this.slots.length || this.slots[index] !== undefined) return;
    this.slots[index] = line;
    if (index !== this.first) return;
    let next = this.first;
    for (; next < this.slots.length; next++) {
      const ready = this.slots[next];
      if (ready === undefined) break;
      this.write(ready);
    }
    if (next < this.slots.length) {
      this.first = next;
      return;
    }
    this.base += this.slots.length;
    this.slots.length = 0;
    this.first = 0;
    this.onSettled();
  }
}
