import { InvalidArgumentError } from '../core/errors.js';

/**
 * A fixed-capacity history that overwrites its oldest entry when full: the commentator's event
 * history and the `/debug/events` buffer. Unlike RingQueue it never refuses a value.
 */
export class RingBuffer<T> {
  private readonly slots: (T | undefined)[];
  private next = 0;
  private count = 0;

  /**
   * @param capacity how many of the newest entries are kept.
   * @throws InvalidArgumentError when capacity is not a positive integer.
   */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new InvalidArgumentError(
        `ring buffer capacity must be a positive integer, got ${capacity}`,
      );
    }
    this.slots = new Array<T | undefined>(capacity);
  }

  /** Number of entries held (at most `capacity`). */
  get length(): number {
    return this.count;
  }

  /** Appends `value`, overwriting the oldest entry when full. */
  push(value: T): void {
    this.slots[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Entries oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) out.push(this.slots[(start + i) % this.capacity] as T);
    return out;
  }

  /** The newest `limit` entries matching `predicate`, oldest first. */
  filter(predicate: (value: T) => boolean, limit = Number.POSITIVE_INFINITY): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count && out.length < limit; i++) {
      const value = this.slots[(this.next - 1 - i + this.capacity * 2) % this.capacity] as T;
      if (predicate(value)) out.push(value);
    }
    return out.reverse();
  }
}
