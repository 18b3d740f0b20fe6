import { BrowserRouter } from 'react-router';
import { FollowIdSwaps } from './FollowIdSwaps';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { AppRoutes } from './router';
import { ServicesProvider } from './services';
import { useThemeSync } from './theme';

export function App() {
  useThemeSync();
  return (
    <ServicesProvider>
      <BrowserRouter>
        <FollowIdSwaps />
        {/* The shell's own boundary; each screen has one more inside (AppRoutes). */}
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </ServicesProvider>
  );
}
