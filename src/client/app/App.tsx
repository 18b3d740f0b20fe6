import { BrowserRouter } from 'react-router';
import { DoorProvider } from './door';
import { FollowIdSwaps } from './FollowIdSwaps';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { AppRoutes } from './router';
import { useThemeSync } from './theme';

export function App() {
  useThemeSync();
  return (
    <DoorProvider>
      <BrowserRouter>
        <FollowIdSwaps />
        {/* The shell's own boundary; each screen has one more inside (AppRoutes). */}
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </DoorProvider>
  );
}
