import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { Button, EmptyState } from '../components/ui';

export default function NotFoundPage() {
  return (
    <EmptyState
      className="mt-8"
      icon={<Compass />}
      title="Page not found"
      description="There is nothing at this address."
      action={
        <Button asChild>
          <Link to="/">Go to Home</Link>
        </Button>
      }
    />
  );
}
