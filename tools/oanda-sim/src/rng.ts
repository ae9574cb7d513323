// Deterministic randomness: a seeded stream (sfc32) for sequential generation and stateless
// integer hashes for values that must be recomputable at any point (minute highs, volumes).

export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hash3(a: number, b: number, c: number): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ (b | 0) ^ Math.floor(b / 4294967296));
  h = mix32(h ^ c);
  return h;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    this.a = mix32(seed ^ 0x243f6a88);
    this.b = mix32(seed + 0x85a308d3 + stream * 0x9e3779b9);
    this.c = mix32(stream ^ 0x13198a2e);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Approximately standard normal (Irwin–Hall of four uniforms): cheap and bounded, enough for prices. */
  normal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508075688772;
  }

  /** A digit string of the given length with a non-zero first digit. */
  digits(length: number): string {
    let s = String(1 + Math.floor(this.next() * 9));
    while (s.length < length) s += String(Math.floor(this.next() * 1e8)).padStart(8, '0');
    return s.slice(0, length);
  }
}
