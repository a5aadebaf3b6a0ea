import { QueryClientProvider } from "@tanstack/react-query";
import { Provider } from "jotai";
import { RouterProvider } from "react-router";

import { queryClient } from "../lib/api";
import { store } from "../lib/store";
import { router } from "./router";

export function App() {
  return (
    <Provider store={store}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </Provider>
  );
}
