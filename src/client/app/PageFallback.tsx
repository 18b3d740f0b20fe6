import { Skeleton, SkeletonRows } from '../components/ui';

/** Shown while a screen's code loads: the shape of a page, not a spinner. */
export function PageFallback() {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Skeleton className="h-7 w-40" />
        <Skeleton className="h-4 w-64" />
      </div>
      <SkeletonRows count={4} label="Loading page" />
    </div>
  );
}
