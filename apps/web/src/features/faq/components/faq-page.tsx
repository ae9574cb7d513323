export function FaqPage() {
  return <p>This screen is being built.</p>;
}
