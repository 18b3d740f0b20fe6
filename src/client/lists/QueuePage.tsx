import { LifecyclePage } from './LifecyclePage';

export default function QueuePage() {
  return <LifecyclePage screen="queue" />;
}
