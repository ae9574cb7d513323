/** The browser's IANA time zone, or undefined when it cannot tell: the server buckets and reads times in it. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
