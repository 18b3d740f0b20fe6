import { LifecyclePage } from './LifecyclePage';

export default function CompletedPage() {
  return <LifecyclePage screen="completed" />;
}
