/** Placeholder of fixed size while an area's page loads, so nothing shifts. */
export function PageSkeleton() {
  return (
    <div className="page-skeleton" role="status" aria-busy="true" aria-label="Načítava sa…">
      <div className="page-skeleton__title" />
      <div className="page-skeleton__block" />
      <div className="page-skeleton__block" />
    </div>
  );
}
