import { LifecyclePage } from './LifecyclePage';

export default function ActivePage() {
  return <LifecyclePage screen="active" />;
}
