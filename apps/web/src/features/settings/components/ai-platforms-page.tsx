export function AiPlatformsPage() {
  return <p>This screen is being built.</p>;
}
