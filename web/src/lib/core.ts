// The shared rules, compiled from client-core to WebAssembly: every rule the server also enforces.
import { constants } from "@blockbrief/client-core";

export * from "@blockbrief/client-core";

/** The spec's numbers, named once in client-core. */
export const C = constants();
