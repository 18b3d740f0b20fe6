import { Bell } from 'lucide-react';
import { EmptyState } from '../components/ui';

/** The spec's notifications screen: no data is fetched yet. */
export default function NotificationsPage() {
  return (
    <section aria-labelledby="notifications-heading" className="flex flex-col gap-4">
      <h1 id="notifications-heading" className="text-2xl font-semibold tracking-tight">
        Recent Notifications
      </h1>
      <EmptyState
        icon={<Bell />}
        title="No notifications yet."
        description="Changes to your items will show up here."
      />
    </section>
  );
}
