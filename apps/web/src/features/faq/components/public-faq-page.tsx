export function PublicFaqPage() {
  return <p>This screen is being built.</p>;
}
