import { QueryClientProvider } from "@tanstack/react-query";
import { Provider } from "jotai";

import { queryClient } from "../lib/query";
import { store } from "../lib/store";
import { Router } from "../lib/router";
import { match } from "./routes";
import { Shell } from "./Shell";

export function App() {
  return (
    <Provider store={store}>
      <QueryClientProvider client={queryClient}>
        <Router match={match}>
          <Shell />
        </Router>
      </QueryClientProvider>
    </Provider>
  );
}
