/**
 * A first-in first-out queue on a power-of-two ring. `push` and `shift` are O(1) and never move
 * elements, unlike `Array.prototype.shift`, which is O(n) once V8 leaves its fast path. The ring
 * grows by doubling; `maxLength` (optional) makes `push` refuse instead of growing past it.
 */
export class RingQueue<T> {
  private slots: (T | undefined)[];
  private head = 0;
  private count = 0;
  private mask: number;

  /**
   * @param maxLength the most elements the queue holds; `push` returns false beyond it.
   *   `Infinity` (the default) lets it grow without bound.
   * @param initialCapacity starting ring size, rounded up to a power of two.
   */
  constructor(
    readonly maxLength = Number.POSITIVE_INFINITY,
    initialCapacity = 16,
  ) {
    let size = 1;
    const want = Math.max(2, Math.min(initialCapacity, maxLength));
    while (size < want) size *= 2;
    this.slots = new Array<T | undefined>(size);
    this.mask = size - 1;
  }

  /** Number of queued elements. */
  get length(): number {
    return this.count;
  }

  /** Appends `value`; returns false (and keeps nothing) when the queue is at `maxLength`. */
  push(value: T): boolean {
    if (this.count >= this.maxLength) return false;
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.head + this.count) & this.mask] = value;
    this.count++;
    return true;
  }

  /** Removes and returns the oldest element, or undefined when empty. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const value = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.count--;
    return value;
  }

  /** The oldest element without removing it. */
  peek(): T | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }

  /** The newest element without removing it. */
  peekLast(): T | undefined {
    return this.count === 0 ? undefined : this.slots[(this.head + this.count - 1) & this.mask];
  }

  /** Replaces the newest element; returns false when the queue is empty. */
  replaceLast(value: T): boolean {
    if (this.count === 0) return false;
    this.slots[(this.head + this.count - 1) & this.mask] = value;
    return true;
  }

  /** Drops every element (references are released so the GC can reclaim them). */
  clear(): void {
    this.slots = new Array<T | undefined>(Math.min(this.slots.length, 16));
    this.mask = this.slots.length - 1;
    this.head = 0;
    this.count = 0;
  }

  /** Oldest-first copy of the queued elements. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.slots[(this.head + i) & this.mask] as T);
    return out;
  }

  private grow(): void {
    const next = new Array<T | undefined>(this.slots.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = this.slots[(this.head + i) & this.mask];
    this.slots = next;
    this.head = 0;
    this.mask = next.length - 1;
  }
}
