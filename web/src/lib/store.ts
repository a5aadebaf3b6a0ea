// The one jotai store, shared by React and by code outside it (the API client, logout).
import { createStore } from "jotai";

export const store = createStore();
