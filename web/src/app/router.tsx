// The app's routes and a small router over the History API: a dozen flat routes do not need a
// routing library (react-router alone was 30 KB of the first load). Navigations run in a React
// transition, so the current page stays up while the next page's code loads, and that pending
// state drives the loading bar.
import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  use,
  useEffect,
  useMemo,
  useState,
  useTransition,
} from "react";

import { HomePage } from "../features/feed/HomePage";
import { splitLocalePath } from "../lib/core";

type Params = Record<string, string>;
interface Where { pathname: string; search: string }

/** A page's code, loaded when the page is first visited. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ComponentType {
  return lazy(() => load().then((m) => ({ default: pick(m) })));
}

/** Every page; each also answers under a locale prefix (`/zh-Hant/explore`). `*` takes the rest. */
const ROUTES: [string, ComponentType][] = [
  ["/", HomePage],
  ["/explore", page(() => import("../features/explore/ExplorePage"), (m) => m.ExplorePage)],
  ["/feed/:id", page(() => import("../features/feed/FeedPage"), (m) => m.FeedPage)],
  ["/benefit/:benefitId/*", page(() => import("../features/pages/BenefitPage"), (m) => m.BenefitPage)],
  ["/search", page(() => import("../features/search/SearchPage"), (m) => m.SearchPage)],
  ["/recommendTag", page(() => import("../features/pages/RecommendTagPage"), (m) => m.RecommendTagPage)],
  ["/account", page(() => import("../features/account/AccountPage"), (m) => m.AccountPage)],
  ["/channel/:code", page(() => import("../features/pages/ChannelPage"), (m) => m.ChannelPage)],
  ["/download", page(() => import("../features/pages/DownloadPage"), (m) => m.DownloadPage)],
];
const NotFound = page(() => import("../features/pages/NotFoundPage"), (m) => m.NotFoundPage);

/** The page for a path (locale prefix removed) and its parameters. */
export function match(path: string): [ComponentType, Params] {
  const segments = path.split("/").filter(Boolean);
  for (const [pattern, component] of ROUTES) {
    const parts = pattern.split("/").filter(Boolean);
    const params: Params = {};
    const fits = parts.every((part, i) => {
      if (part === "*") {
        params["*"] = segments.slice(i).join("/");
        return true;
      }
      const segment = segments[i];
      if (segment === undefined) return false;
      if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(segment);
      return part.startsWith(":") || part === segment;
    });
    if (fits && (parts.at(-1) === "*" || parts.length === segments.length)) return [component, params];
  }
  return [NotFound, {}];
}

interface RouterState {
  location: Where;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  pending: boolean;
}

const RouterContext = createContext<RouterState | null>(null);

function here(): Where {
  return { pathname: location.pathname, search: location.search };
}

/** Renders `children` (the shell) with the current location; the shell places `<Outlet />`. */
export function Router({ children }: { children: ReactNode }) {
  const [where, setWhere] = useState(here);
  const [pending, startTransition] = useTransition();
  useEffect(() => {
    const onPop = () => startTransition(() => setWhere(here()));
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  const state = useMemo<RouterState>(
    () => ({
      location: where,
      pending,
      navigate: (to, options) => {
        if (options?.replace) history.replaceState(null, "", to);
        else {
          history.pushState(null, "", to);
          scrollTo(0, 0);
        }
        startTransition(() => setWhere(here()));
      },
    }),
    [where, pending],
  );
  return <RouterContext value={state}>{children}</RouterContext>;
}

function useRouter(): RouterState {
  const state = use(RouterContext);
  if (!state) throw new Error("outside <Router>");
  return state;
}

export const useLocation = (): Where => useRouter().location;
export const useNavigate = () => useRouter().navigate;
/** A navigation is waiting for its page's code. */
export const useNavigationPending = (): boolean => useRouter().pending;

export function useParams(): Params {
  return match(splitLocalePath(useLocation().pathname).path)[1];
}

/** The query string, and a setter that navigates to the same path with new parameters. */
export function useSearchParams(): [URLSearchParams, (next: Record<string, string>) => void] {
  const { location: where, navigate } = useRouter();
  return [new URLSearchParams(where.search), (next) => navigate(`${where.pathname}?${new URLSearchParams(next)}`)];
}

/** The current page. */
export function Outlet() {
  const [Page] = match(splitLocalePath(useLocation().pathname).path);
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
