/** Offset of the browser's zone from UTC at an instant, in seconds (east positive). */
const browserOffsetSeconds = (utcSeconds: number) => -new Date(utcSeconds * 1000).getTimezoneOffset() * 60;

/**
 * lightweight-charts draws every time as UTC; shifting each point by the zone's offset at that instant makes the axis
 * read the trader's own clock (the library's documented approach). A shift across a DST change can fold two points
 * onto one second or reorder them, and the library needs strictly ascending times, so a point that would not move
 * forward is nudged one second past its predecessor. `time` is in UTC seconds; the rest of each point is kept.
 */
export function toLocalTimes<T extends { time: number }>(
  points: readonly T[],
  offsetSeconds = browserOffsetSeconds,
): T[] {
  const shifted: T[] = [];
  let previous = -Infinity;
  for (const point of points) {
    const time = Math.max(point.time + offsetSeconds(point.time), previous + 1);
    shifted.push({ ...point, time });
    previous = time;
  }
  return shifted;
}
