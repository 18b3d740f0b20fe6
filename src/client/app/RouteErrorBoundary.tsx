import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RouteError } from './RouteError';

interface BoundaryProps {
  children: ReactNode;
  /** A change (the user went elsewhere) clears a caught error, so the next screen renders. */
  resetKey: string;
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  /** The address the error was caught at. */
  failedAt: string | null;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: null, failedAt: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (!state.failed) return null;
    if (state.failedAt === null) return { failedAt: props.resetKey };
    // The user has gone elsewhere: try again.
    return state.failedAt === props.resetKey ? null : { failed: false, error: null, failedAt: null };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/**
 * A screen's error boundary: a failure shows what happened and a way back (RouteError), never a blank
 * page, and going to another address clears it.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  return <ErrorBoundary resetKey={pathname + search}>{children}</ErrorBoundary>;
}
