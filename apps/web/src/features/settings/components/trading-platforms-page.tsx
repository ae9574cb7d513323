export function TradingPlatformsPage() {
  return <p>This screen is being built.</p>;
}
