// Placeholder so the router can lazy-import this route; the real screen replaces it shortly.
export default function MinersPage() {
  return <main aria-busy="true" />;
}
