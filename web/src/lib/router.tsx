// A small router over the History API: a dozen flat routes do not need a routing library
// (react-router alone was 30 KB of the first load). The routes themselves are `app/routes.tsx`.
// Navigations run in a React transition, so the current page stays up while the next page's code
// loads, and that pending state drives the loading bar.
import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  type MouseEvent,
  type ReactNode,
  Suspense,
  use,
  useEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";

import { splitLocalePath } from "./core";

export type Params = Record<string, string>;
interface Where { pathname: string; search: string; hash: string }
/** The page for a path (locale prefix removed) and its parameters: the app's routes. */
export type Matcher = (path: string) => [ComponentType, Params];

interface RouterState {
  match: Matcher;
  location: Where;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  pending: boolean;
}

const RouterContext = createContext<RouterState | null>(null);

let savingScroll = 0;
/** How long Back or Forward keeps scrolling to the saved place while the page is drawn. */
const RESTORE_MS = 5000;
const saveScroll = () => history.replaceState({ ...(history.state as object | null), scrollY }, "");
const scrollOf = (state: unknown): number | null => {
  const y = (state as { scrollY?: unknown } | null)?.scrollY;
  return typeof y === "number" ? y : null;
};

let stopRestoring = () => {};
/** Scrolls back to `y` on Back or Forward. Cached lists draw at once, others as they load (slowly
 * on a busy phone): it keeps trying for a few seconds while the page grows, until the reader
 * moves or goes elsewhere. Not tied to a React effect's lifetime: React may commit the page it
 * returns to more than once (first without its suspended parts), and a cleanup between those
 * commits used to leave the reader at the top. */
function restoreScroll(y: number) {
  stopRestoring();
  const until = performance.now() + RESTORE_MS;
  let frame = 0;
  const moved = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const event of moved) removeEventListener(event, stop);
  };
  const attempt = () => {
    scrollTo(0, y);
    if (Math.abs(scrollY - y) > 1 && performance.now() < until) frame = requestAnimationFrame(attempt);
    else stop();
  };
  for (const event of moved) addEventListener(event, stop, { passive: true });
  stopRestoring = stop;
  attempt();
}

function here(): Where {
  return { pathname: location.pathname, search: location.search, hash: location.hash };
}

/** Renders `children` (the shell) with the current location; the shell places `<Outlet />`. */
export function Router({ match, children }: { match: Matcher; children: ReactNode }) {
  const [where, setWhere] = useState(here);
  const [pending, startTransition] = useTransition();
  // Where Back or Forward should scroll to once the page they return to is drawn.
  const restoreTo = useRef<number | null>(null);
  useEffect(() => {
    // Each history entry keeps its own scroll position (`scrollY` in its state), saved as the
    // reader scrolls: the browser's own restoring runs before a page's lists are drawn.
    history.scrollRestoration = "manual";
    const onScroll = () => {
      clearTimeout(savingScroll);
      savingScroll = window.setTimeout(saveScroll, 100);
    };
    const onPop = () => {
      clearTimeout(savingScroll);
      stopRestoring();
      restoreTo.current = scrollOf(history.state);
      startTransition(() => setWhere(here()));
    };
    addEventListener("scroll", onScroll, { passive: true });
    addEventListener("popstate", onPop);
    return () => {
      removeEventListener("scroll", onScroll);
      removeEventListener("popstate", onPop);
    };
  }, []);
  useEffect(() => {
    const y = restoreTo.current;
    restoreTo.current = null;
    if (y !== null) restoreScroll(y);
  }, [where]);
  const state = useMemo<RouterState>(
    () => ({
      match,
      location: where,
      pending,
      navigate: (to, options) => {
        if (options?.replace) history.replaceState(null, "", to);
        else {
          clearTimeout(savingScroll);
          stopRestoring();
          saveScroll();
          // Marked as ours: a page can tell that Back stays in the app (`cameFromApp`).
          history.pushState({ inApp: true }, "", to);
          scrollTo(0, 0);
        }
        startTransition(() => setWhere(here()));
      },
    }),
    [match, where, pending],
  );
  return <RouterContext value={state}>{children}</RouterContext>;
}

function useRouter(): RouterState {
  const state = use(RouterContext);
  if (!state) throw new Error("outside <Router>");
  return state;
}

export const useLocation = (): Where => useRouter().location;
/** Whether this page was opened from another page of the app (so Back returns to it). */
export const cameFromApp = (): boolean => (history.state as { inApp?: boolean } | null)?.inApp === true;
export const useNavigate = () => useRouter().navigate;
/** A navigation is waiting for its page's code. */
export const useNavigationPending = (): boolean => useRouter().pending;

export function useParams(): Params {
  const { match, location: where } = useRouter();
  return match(splitLocalePath(where.pathname).path)[1];
}

/** The query string, and a setter that navigates to the same path with new parameters. */
export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string>, options?: { replace?: boolean }) => void,
] {
  const { location: where, navigate } = useRouter();
  return [
    new URLSearchParams(where.search),
    (next, options) => {
      const query = new URLSearchParams(next).toString();
      navigate(query ? `${where.pathname}?${query}` : where.pathname, options);
    },
  ];
}

/** The current page. */
export function Outlet() {
  const { match, location: where } = useRouter();
  const [Page] = match(splitLocalePath(where.pathname).path);
  return (
    <Suspense fallback={null}>
      <Page />
    </Suspense>
  );
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string };

/** An in-app link: a real `href` (new tabs, crawlers), navigated in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    const modified = e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0;
    if (e.defaultPrevented || modified || rest.target) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...rest} />;
}

/** A link marked `active` (and `aria-current`) on its page, or under it unless `end`. */
export function NavLink({ end = false, className, ...rest }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation();
  const active = pathname === rest.to || (!end && pathname.startsWith(`${rest.to}/`));
  return (
    <Link
      {...rest}
      className={[className, active ? "active" : ""].filter(Boolean).join(" ") || undefined}
      aria-current={active ? "page" : undefined}
    />
  );
}
