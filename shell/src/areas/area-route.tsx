import { Component, Suspense, use, useContext, useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isNotFound } from '@shop/shared-kernel/rules';
import { ServerRenderContext } from '@shop/shared-kernel/react';
import { AreaLoadError, areaVersion, forgetFailedLoad, loadAreaModule } from './area-loader.ts';
import { reportError, reportPageView, setCurrentArea, stackOf } from '../app/telemetry.ts';
import { checkForNewBuild } from '../app/new-build.ts';
import { reloadOnce } from '../app/reload-guard.ts';
import type { ShopRoute } from '../app/route-table.ts';
import { NotFoundPage } from '../pages/not-found-page.tsx';
import { AreaUnavailable } from './area-unavailable.tsx';
import { AreaRouting } from './area-routing.tsx';
import { PageSkeleton } from '../components/page-skeleton.tsx';
import { useMarkInteractive } from '../app/mark-interactive.ts';
import { newPageView } from './preload.ts';

function AreaPage({ route }: { route: ShopRoute }) {
  const { default: Page } = use(loadAreaModule(route.area, route.module));
  useMarkInteractive();
  return <Page />;
}

type BoundaryProps = { route: ShopRoute; children: ReactNode };
type BoundaryState = { error: unknown; attempt: number };

/**
 * Contains an area's failure to its part of the page: a page that reports
 * "not found" becomes the shell's 404 page; anything else a Slovak message
 * with a retry, while the header and the other areas keep working.
 */
class AreaBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    // A chunk that fails after a deploy: one full reload brings the new build (guarded).
    if (error instanceof AreaLoadError && error.reason === 'unavailable') {
      void checkForNewBuild().then((changed) => changed && reloadOnce());
    }
    // A page that throws reaches the operator, attributed to the version that rendered it (load failures are reported where they happen).
    if (!isNotFound(error) && !(error instanceof AreaLoadError)) {
      const { area } = this.props.route;
      reportError(
        'boundary',
        area,
        areaVersion(area),
        error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stackOf(error),
      );
    }
  }

  retry = () => {
    forgetFailedLoad(this.props.route.area, this.props.route.module);
    this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));
  };

  override render() {
    const { error, attempt } = this.state;
    if (error !== null) {
      if (isNotFound(error)) return <NotFoundPage />;
      return <AreaUnavailable area={this.props.route.area} onRetry={this.retry} />;
    }
    return (
      <Suspense fallback={<PageSkeleton />} key={attempt}>
        {this.props.children}
      </Suspense>
    );
  }
}

/** Renders a route's page from its area, loading the area's module lazily. */
export function AreaRoute({ route }: { route: ShopRoute }) {
  const location = useLocation();
  // The server found the page's data missing (404): its not-found page, the same on hydration.
  const notFound = useContext(ServerRenderContext)?.notFound === true;
  useEffect(() => {
    newPageView();
    const version = areaVersion(route.area);
    setCurrentArea(route.area, version, route.name);
    reportPageView(route.area, version, route.name);
  }, [location.key, route.area, route.name]);
  return (
    <div className="area-outlet" data-boundary={route.area} data-route={route.name}>
      {notFound ? (
        <NotFoundPage />
      ) : (
        <AreaBoundary route={route} key={location.pathname}>
          <AreaRouting>
            <AreaPage route={route} />
          </AreaRouting>
        </AreaBoundary>
      )}
    </div>
  );
}
