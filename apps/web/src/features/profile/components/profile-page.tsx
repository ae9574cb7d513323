export function ProfilePage() {
  return <p>This screen is being built.</p>;
}
