// The entity linker, client-core's third WebAssembly module (`client_core_link`): the rule the
// server links every stored item with. Only the Write page and the alert editor import this file,
// so its automaton and Unicode tables load with them alone.
export * from "@blockbrief/client-core/link";
