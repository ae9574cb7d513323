/**
 * docs/PRODUCT.md, Signed-in layout: the last path segment, decoded, split on underscores, each word capitalised; 'ai'
 * → 'AI'.
 */
export function headingFromPath(pathname: string): string {
  const segment = pathname.split('/').filter(Boolean).at(-1);
  if (!segment) return 'Dashboard';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  return decoded
    .split('_')
    .filter(Boolean)
    .map((w) => (w.toLowerCase() === 'ai' ? 'AI' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}
